package symcache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"

	"github.com/symedit/symedit/symbols"
)

// An entry file is a header line, "symedit-index " and the hex SHA-256 of
// the body, then the body: the build and the key, then the symbols, every
// string as a uvarint length and its bytes and every number as a varint
// (uvarint for inode and device):
//
//	build path lang size mtime ctime ino dev count
//	count × (name namepath kind startLine startCol endLine endCol selLine selCol
//	         startByte endByte implByte modifiersByte keywordByte parent)
//
// A compact binary body decodes several times faster than JSON, which
// was most of a warm run's time.

// errCorrupt is decode's error for an entry that fails its header or
// checksum, or whose body ends early or runs on.
var errCorrupt = errors.New("symcache: corrupt entry")

// encode returns the entry file for build, k and e.
func encode(build string, k Key, e Entry) []byte {
	syms := e.Symbols
	b := make([]byte, 0, 128+len(syms)*64)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str(build)
	str(k.Path)
	str(k.Lang)
	num(k.Size)
	num(k.ModTime)
	num(k.ChangeTime)
	b = binary.AppendUvarint(b, k.Inode)
	b = binary.AppendUvarint(b, k.Device)
	num(int64(len(syms)))
	for _, s := range syms {
		str(s.Name)
		str(s.NamePath)
		str(string(s.Kind))
		for _, v := range [...]int{s.Start.Line, s.Start.Column, s.End.Line, s.End.Column, s.Selection.Line, s.Selection.Column,
			s.StartByte, s.EndByte, s.ImplByte, s.ModifiersByte, s.KeywordByte, s.Parent} {
			num(int64(v))
		}
	}
	// The SHA-256 sums, raw: the file's, then one per symbol or none.
	str(e.SHA256)
	num(int64(len(e.SymbolSHA256)))
	for _, h := range e.SymbolSHA256 {
		str(h)
	}
	sum := sha256.Sum256(b)
	out := make([]byte, 0, len(header)+2+2*len(sum)+len(b))
	out = append(append(append(out, header...), ' '), hex.EncodeToString(sum[:])...)
	return append(append(out, '\n'), b...)
}

// decoder reads a body; the first short or bad read sets bad.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) num() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) unum() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.unum()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// int reads a number that must fit an int and be at least -1.
func (d *decoder) int() int {
	v := d.num()
	if v < -1 || int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

// decode checks an entry file's header and checksum and decodes its body.
// The error is errCorrupt.
func decode(data []byte) (build string, k Key, e Entry, err error) {
	var syms []symbols.Symbol
	const headLen = len(header) + 1 + 2*sha256.Size
	if len(data) < headLen+1 || string(data[:len(header)+1]) != header+" " || data[headLen] != '\n' {
		return "", k, e, errCorrupt
	}
	body := data[headLen+1:]
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != string(data[len(header)+1:headLen]) {
		return "", k, e, errCorrupt
	}
	d := &decoder{b: body}
	build = d.str()
	k.Path, k.Lang = d.str(), d.str()
	k.Size, k.ModTime, k.ChangeTime = d.num(), d.num(), d.num()
	k.Inode, k.Device = d.unum(), d.unum()
	n := d.int()
	if d.bad || n < 0 || n > len(d.b) { // every symbol takes several bytes
		return "", k, e, errCorrupt
	}
	syms = make([]symbols.Symbol, n)
	for i := range syms {
		s := &syms[i]
		s.Name, s.NamePath, s.Kind = d.str(), d.str(), symbols.Kind(d.str())
		s.Start.Line, s.Start.Column, s.End.Line, s.End.Column = d.int(), d.int(), d.int(), d.int()
		s.Selection.Line, s.Selection.Column = d.int(), d.int()
		s.StartByte, s.EndByte, s.ImplByte, s.ModifiersByte, s.KeywordByte = d.int(), d.int(), d.int(), d.int(), d.int()
		s.Parent = d.int()
		if d.bad {
			return "", k, e, errCorrupt
		}
	}
	e.Symbols, e.SHA256 = syms, d.str()
	m := d.int()
	if d.bad || m != 0 && m != n || len(e.SHA256) != 0 && len(e.SHA256) != sha256.Size {
		return "", k, e, errCorrupt
	}
	if m > 0 {
		e.SymbolSHA256 = make([]string, m)
		for i := range e.SymbolSHA256 {
			if e.SymbolSHA256[i] = d.str(); len(e.SymbolSHA256[i]) != sha256.Size {
				return "", k, e, errCorrupt
			}
		}
	}
	if d.bad || len(d.b) != 0 {
		return "", k, e, errCorrupt
	}
	return build, k, e, nil
}
