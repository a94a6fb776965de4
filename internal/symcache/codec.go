package symcache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/symedit/symedit/symbols"
)

// A pack file is a header line, "symedit-pack " and the CRC-32C
// (Castagnoli) of the body in 8 lowercase hexadecimal digits, then the
// body: the build and the group's real path (the
// parent of the files' folders), the number of entries, then each entry's
// key (the file's member name, its folder's base name and its own, and
// the rest of Key) and its symbols as one length-prefixed blob. Every string
// is a uvarint length and its bytes, every number a varint (uvarint for
// inode and device):
//
//	build dir count
//	count × (name lang size mtime ctime ino dev blobLen blob)
//
// A blob, decoded only for the entry a Get asks for:
//
//	nsyms
//	nsyms × (name parent namepath kind startLine startCol endLine endCol
//	         selLine selCol startByte endByte implByte modifiersByte keywordByte)
//	sha256 nsums nsums × sum
//
// where the fields a symbol shares with its neighbours are stored as
// differences, which take one or two bytes where the values take two to
// four: startLine and startByte less the previous symbol's (0 for the
// first), endLine and selLine less startLine, endByte less startByte,
// parent as the symbol's index less it (the index plus one for no
// parent); implByte, modifiersByte and keywordByte as a uvarint, 0 for -1
// (none) and otherwise 1 plus the zig-zag of the offset less startByte.
// namepath is a uvarint, 0 when it is the name path the parent's and the
// name make (the name alone without a parent, else the parent's name
// path, "/", the name: four symbols in five), else the length plus one
// and the bytes; kind a uvarint, the kind's place in symbols.Kinds plus
// one, or 0 and the kind's text. Columns are stored as they are. At
// 100,000 files the packs took 110 MB with every field stored whole, a
// third less this way, and a cold run writes all of it.
//
// A compact binary body decodes several times faster than JSON, and the
// blob is decoded from one string, so that a symbol's strings share its
// bytes instead of taking an allocation each. The checksum detects a pack
// damaged on disk or cut short, as ext4's and btrfs's metadata checksums
// do, with the same CRC: the CPU computes it in hardware, where a SHA-256
// of every pack read was 5% of a warm run over 100,000 files. It is no
// defence against someone who can write the cache folder, and a hash
// would be none either: whoever writes the pack can write its sum.

// errCorrupt is decode's error for a pack that fails its header or
// checksum, or whose body or an entry's blob ends early or runs on.
var errCorrupt = errors.New("symcache: corrupt pack")

// header starts every pack file.
const header = "symedit-pack"

// sumDigits is the length of the header's checksum: a CRC-32C in hex.
const sumDigits = 2 * crc32.Size

// castagnoli is the CRC-32C table; crc32 computes it with the CPU's
// instruction where there is one (SSE 4.2, ARMv8).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// packEntry is one entry of a pack: its key and its undecoded blob.
type packEntry struct {
	key  Key // Path is the file's member name (memberName) inside a pack
	blob []byte
}

// encodeBlob returns e's blob.
func encodeBlob(e Entry) []byte {
	syms := e.Symbols
	n := 16 + len(e.SHA256) + len(e.SymbolSHA256)*(1+sha256.Size)
	for _, s := range syms {
		n += 24 + len(s.Name)
	}
	b := make([]byte, 0, n)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	num := func(v int) { b = binary.AppendVarint(b, int64(v)) }
	num(len(syms))
	prevLine, prevByte := 0, 0
	for i, s := range syms {
		str(s.Name)
		num(i - s.Parent)
		if derivedNamePath(syms, i) {
			b = append(b, 0)
		} else {
			b = binary.AppendUvarint(b, uint64(len(s.NamePath))+1)
			b = append(b, s.NamePath...)
		}
		if k := slices.Index(kindList, s.Kind); k >= 0 {
			b = binary.AppendUvarint(b, uint64(k)+1)
		} else {
			b = append(b, 0)
			str(string(s.Kind))
		}
		num(s.Start.Line - prevLine)
		num(s.Start.Column)
		num(s.End.Line - s.Start.Line)
		num(s.End.Column)
		num(s.Selection.Line - s.Start.Line)
		num(s.Selection.Column)
		num(s.StartByte - prevByte)
		num(s.EndByte - s.StartByte)
		for _, v := range [...]int{s.ImplByte, s.ModifiersByte, s.KeywordByte} {
			if v == -1 {
				b = append(b, 0)
			} else {
				b = binary.AppendUvarint(b, zigzag(int64(v)-int64(s.StartByte))+1)
			}
		}
		prevLine, prevByte = s.Start.Line, s.StartByte
	}
	// The SHA-256 sums, raw: the file's, then one per symbol or none.
	str(e.SHA256)
	num(len(e.SymbolSHA256))
	for _, h := range e.SymbolSHA256 {
		str(h)
	}
	return b
}

// derivedNamePath reports whether syms[i]'s name path is the one its
// parent and name make: the name alone without a parent, else the
// parent's name path, "/" and the name, the parent coming before it.
func derivedNamePath(syms []symbols.Symbol, i int) bool {
	s := syms[i]
	switch {
	case s.Parent == -1:
		return s.NamePath == s.Name
	case s.Parent < -1 || s.Parent >= i:
		return false
	}
	p := syms[s.Parent].NamePath
	rest, ok := strings.CutPrefix(s.NamePath, p)
	return ok && len(rest) == 1+len(s.Name) && rest[0] == '/' && rest[1:] == s.Name
}

// zigzag maps a signed number to an unsigned one, small magnitudes to
// small numbers, as binary.PutVarint does.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// kindList is the order a blob numbers the kinds in (symbols.Kinds): a
// pack is read only by the build that wrote it, which has the same list.
var kindList = symbols.Kinds()

// encodePack returns the pack file for build and the group dir holding
// entries (keys' Path the member names).
func encodePack(build, dir string, entries []packEntry) []byte {
	n := 64 + len(build) + len(dir)
	for _, e := range entries {
		n += 64 + len(e.key.Path) + len(e.key.Lang) + len(e.blob)
	}
	// The body is encoded after room for the header line, which is
	// filled in once its checksum is known: a cold run's packs are tens of
	// megabytes, and a copy of each behind its header was 0.5% of its CPU.
	head := len(header) + 2 + sumDigits
	b := make([]byte, head, head+n)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str(build)
	str(dir)
	num(int64(len(entries)))
	for _, e := range entries {
		k := e.key
		str(k.Path)
		str(k.Lang)
		num(k.Size)
		num(k.ModTime)
		num(k.ChangeTime)
		b = binary.AppendUvarint(b, k.Inode)
		b = binary.AppendUvarint(b, k.Device)
		b = binary.AppendUvarint(b, uint64(len(e.blob)))
		b = append(b, e.blob...)
	}
	// The header line in the room left for it: the header, a space, the
	// body's CRC-32C in hexadecimal, a newline.
	sum := binary.BigEndian.AppendUint32(nil, crc32.Checksum(b[head:], castagnoli))
	copy(b, header)
	b[len(header)] = ' '
	hex.Encode(b[len(header)+1:head-1], sum)
	b[head-1] = '\n'
	return b
}

// byteDecoder reads a pack's body; the first short or bad read sets bad.
// Strings are copies (a pack's table outlives nothing but its load).
type byteDecoder struct {
	b   []byte
	bad bool
}

func (d *byteDecoder) num() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *byteDecoder) unum() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// bytes returns the next length-prefixed bytes, sharing d's array.
func (d *byteDecoder) bytes() []byte {
	n := d.unum()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

// decodePack checks a pack file's header and checksum and returns its
// build, folder and entries (blobs share data's array, undecoded). The
// error is errCorrupt.
func decodePack(data []byte) (build, dir string, entries []packEntry, err error) {
	const headLen = len(header) + 1 + sumDigits
	if len(data) < headLen+1 || string(data[:len(header)+1]) != header+" " || data[headLen] != '\n' {
		return "", "", nil, errCorrupt
	}
	body := data[headLen+1:]
	var want [crc32.Size]byte
	if _, err := hex.Decode(want[:], data[len(header)+1:headLen]); err != nil || binary.BigEndian.Uint32(want[:]) != crc32.Checksum(body, castagnoli) {
		return "", "", nil, errCorrupt
	}
	d := &byteDecoder{b: body}
	build, dir = string(d.bytes()), string(d.bytes())
	n := d.num()
	if d.bad || n < 0 || n > int64(len(d.b)) { // every entry takes several bytes
		return "", "", nil, errCorrupt
	}
	entries = make([]packEntry, n)
	for i := range entries {
		k := &entries[i].key
		k.Path, k.Lang = string(d.bytes()), string(d.bytes())
		k.Size, k.ModTime, k.ChangeTime = d.num(), d.num(), d.num()
		k.Inode, k.Device = d.unum(), d.unum()
		entries[i].blob = d.bytes()
		if d.bad {
			return "", "", nil, errCorrupt
		}
	}
	if len(d.b) != 0 {
		return "", "", nil, errCorrupt
	}
	return build, dir, entries, nil
}

// strDecoder reads a blob held in one string: the strings it returns are
// slices of it, no allocation each. The first short or bad read sets bad.
type strDecoder struct {
	s   string
	bad bool
}

func (d *strDecoder) unum() uint64 {
	var v uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			break // overflows 64 bits
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.s = d.s[i+1:]
			return v
		}
	}
	d.bad, d.s = true, ""
	return 0
}

func (d *strDecoder) num() int64 { return unzigzag(d.unum()) }

// unzigzag undoes zigzag, as binary.Varint does.
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (d *strDecoder) str() string { return d.fixed(d.unum()) }

// fixed returns the next n bytes.
func (d *strDecoder) fixed(n uint64) string {
	if n > uint64(len(d.s)) {
		d.bad, d.s = true, ""
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

// offset reads a byte offset stored relative to base (see the blob's
// layout): -1 for 0, else base plus the zig-zag number less one.
func (d *strDecoder) offset(base int) int {
	u := d.unum()
	if u == 0 {
		return -1
	}
	v := int64(base) + unzigzag(u-1)
	if v < -1 || int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

// delta reads a number that must fit an int.
func (d *strDecoder) delta() int {
	v := d.num()
	if int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

// int reads a number that must fit an int and be at least -1.
func (d *strDecoder) int() int {
	v := d.num()
	if v < -1 || int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

// decodeBlob decodes an entry's blob. The error is errCorrupt.
func decodeBlob(blob []byte) (Entry, error) {
	var e Entry
	d := &strDecoder{s: string(blob)} // the one copy every string shares
	n := d.int()
	if d.bad || n < 0 || n > len(d.s) { // every symbol takes several bytes
		return e, errCorrupt
	}
	syms := make([]symbols.Symbol, n)
	// The derived name paths of nested symbols are built in one buffer,
	// made when the first is met (a Go file has none: its methods have no
	// parent): a Builder never changes the bytes it holds, so each is a
	// slice of it.
	var paths strings.Builder
	prevLine, prevByte := 0, 0
	for i := range syms {
		s := &syms[i]
		s.Name = d.str()
		s.Parent = i - d.delta()
		switch tag := d.unum(); {
		case tag > 0:
			s.NamePath = d.fixed(tag - 1)
		case s.Parent == -1:
			s.NamePath = s.Name
		case s.Parent >= 0 && s.Parent < i:
			if paths.Cap() == 0 {
				paths.Grow(len(d.s) / 2)
			}
			start := paths.Len()
			paths.WriteString(syms[s.Parent].NamePath)
			paths.WriteByte('/')
			paths.WriteString(s.Name)
			s.NamePath = paths.String()[start:]
		default:
			return e, errCorrupt
		}
		if k := d.unum(); k == 0 {
			s.Kind = symbols.Kind(d.str()) // a kind symbols.Kinds lists is stored as its number
		} else if k <= uint64(len(kindList)) {
			s.Kind = kindList[k-1]
		} else {
			return e, errCorrupt
		}
		s.Start.Line = prevLine + d.delta()
		s.Start.Column = d.delta()
		s.End.Line = s.Start.Line + d.delta()
		s.End.Column = d.delta()
		s.Selection.Line = s.Start.Line + d.delta()
		s.Selection.Column = d.delta()
		s.StartByte = prevByte + d.delta()
		s.EndByte = s.StartByte + d.delta()
		s.ImplByte, s.ModifiersByte, s.KeywordByte = d.offset(s.StartByte), d.offset(s.StartByte), d.offset(s.StartByte)
		if d.bad || min(s.Start.Line, s.Start.Column, s.End.Line, s.End.Column, s.Selection.Line, s.Selection.Column, s.StartByte, s.EndByte) < -1 {
			return e, errCorrupt
		}
		prevLine, prevByte = s.Start.Line, s.StartByte
	}
	e.Symbols, e.SHA256 = syms, d.str()
	m := d.int()
	if d.bad || m != 0 && m != n || len(e.SHA256) != 0 && len(e.SHA256) != sha256.Size {
		return Entry{}, errCorrupt
	}
	if m > 0 {
		e.SymbolSHA256 = make([]string, m)
		for i := range e.SymbolSHA256 {
			if e.SymbolSHA256[i] = d.str(); len(e.SymbolSHA256[i]) != sha256.Size {
				return Entry{}, errCorrupt
			}
		}
	}
	if d.bad || len(d.s) != 0 {
		return Entry{}, errCorrupt
	}
	return e, nil
}
