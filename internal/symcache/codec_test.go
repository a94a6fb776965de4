package symcache_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/symcache"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// TestRoundTripReal checks that an entry comes back exactly as put, every
// field, for the symbols of real files of every language (the
// repository's excerpts) and of a sample of GOROOT/src: a blob stores
// lines, offsets and parents as differences and most name paths as one
// byte, and a wrong rule would shift or rename symbols only in some
// files. It also checks that a pack is smaller than the entries' fields
// stored whole would be.
func TestRoundTripReal(t *testing.T) {
	files := map[string][]byte{}
	paths, err := filepath.Glob("../../testdata/src/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if _, err := lang.ForPath(p); err != nil {
			continue // README.md
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = src
	}
	if goroot.Src() != "" {
		for p, src := range goroot.Sample(t, 40) {
			files[p] = src
		}
	}
	dir := t.TempDir()
	c := open(t, dir, symcache.Options{Build: "b"})
	_, now := oldKey(t, "../../testdata/src/python/contextlib_excerpt.py")
	put := map[symcache.Key]symcache.Entry{}
	langs := map[string]bool{}
	var nsyms, whole int
	for p, src := range files {
		l, err := lang.ForPath(p)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := symbols.Extract(context.Background(), src, l)
		if err != nil {
			continue // a test file that does not parse
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		k := symcache.Key{Path: abs, Lang: l.Name, Size: int64(len(src)), ModTime: 1, ChangeTime: 2, Inode: 3, Device: 4}
		file := sha256.Sum256(src)
		e := symcache.Entry{Symbols: syms, SHA256: string(file[:])}
		for _, s := range syms {
			sum := sha256.Sum256(src[s.StartByte:s.EndByte])
			e.SymbolSHA256 = append(e.SymbolSHA256, string(sum[:]))
			whole += wholeSize(s)
		}
		if err := c.PutEntry(k, now, e); err != nil {
			t.Fatal(err)
		}
		put[k] = e
		nsyms += len(syms)
		langs[l.Name] = len(syms) > 0 || langs[l.Name]
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	for name, some := range langs {
		if !some {
			t.Errorf("%s: no symbols in its files; the round trip reads none of its", name)
		}
	}
	reread := open(t, dir, symcache.Options{Build: "b"})
	for k, want := range put {
		got, ok := reread.GetEntry(k)
		if !ok || !sameEntry(got, want) {
			t.Errorf("%s: the entry read back differs from the one put (ok %v)", k.Path, ok)
		}
	}
	var packed int64
	for _, p := range entryFiles(t, dir) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		packed += fi.Size()
	}
	whole += nsyms * (1 + sha256.Size)
	if packed >= int64(whole) {
		t.Errorf("%d symbols: packs take %d bytes, the fields stored whole %d", nsyms, packed, whole)
	}
	t.Logf("%d files, %d symbols: packs %d bytes, fields whole %d", len(put), nsyms, packed, whole)
}

// sameEntry reports whether a and b hold the same symbols and sums, an
// empty list the same as none.
func sameEntry(a, b symcache.Entry) bool {
	return a.SHA256 == b.SHA256 && (len(a.Symbols) == 0 && len(b.Symbols) == 0 || reflect.DeepEqual(a.Symbols, b.Symbols)) &&
		(len(a.SymbolSHA256) == 0 && len(b.SymbolSHA256) == 0 || reflect.DeepEqual(a.SymbolSHA256, b.SymbolSHA256))
}

// wholeSize is what s's fields take stored whole: each string with its
// length, each number as a varint.
func wholeSize(s symbols.Symbol) int {
	n := 0
	for _, str := range []string{s.Name, s.NamePath, string(s.Kind)} {
		n += len(binary.AppendUvarint(nil, uint64(len(str)))) + len(str)
	}
	for _, v := range []int{s.Start.Line, s.Start.Column, s.End.Line, s.End.Column, s.Selection.Line, s.Selection.Column,
		s.StartByte, s.EndByte, s.ImplByte, s.ModifiersByte, s.KeywordByte, s.Parent} {
		n += len(binary.AppendVarint(nil, int64(v)))
	}
	return n
}

// FuzzRoundTrip checks that any entry whose symbols keep the invariants
// Get checks (parents before children, byte ranges inside the file)
// comes back exactly as put, whatever its other fields: lines and
// columns out of order or -1 (a number below -1 is read as corruption), offsets before the start, name paths that
// are not their parent's, kinds no language has, empty strings.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("class\x00A\x00A\x00\x05\x03\x01"), uint16(7))
	f.Add([]byte("m\x01B/m\x00x\x00\xff\xfe\x80\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"), uint16(300))
	f.Add([]byte{}, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(int8(b))
		}
		word := func() string {
			i := strings.IndexByte(string(data), 0)
			if i < 0 {
				i = len(data)
			}
			w := string(data[:i])
			data = data[min(i+1, len(data)):]
			return w
		}
		var syms []symbols.Symbol
		for len(data) > 0 && len(syms) < 64 {
			i := len(syms)
			s := symbols.Symbol{Name: word(), Kind: symbols.Kind(word())}
			if k := next(); k >= 0 && k < len(symbols.Kinds()) {
				s.Kind = symbols.Kinds()[k]
			}
			s.Parent = -1
			if p := next(); i > 0 && p >= 0 {
				s.Parent = p % i
			}
			switch next() % 3 {
			case 0:
				s.NamePath = word()
			case 1:
				s.NamePath = s.Name
			default:
				s.NamePath = s.Name
				if s.Parent >= 0 {
					s.NamePath = syms[s.Parent].NamePath + "/" + s.Name
				}
			}
			at := func(v int) int { return max(-1, v) } // Get refuses a number below -1
			s.Start.Line, s.Start.Column, s.End.Line, s.End.Column = at(next()*1000), at(next()), at(next()*70000), at(next())
			s.Selection.Line, s.Selection.Column = at(next()), at(next()*3)
			s.StartByte = min(max(0, next()*400), int(size))
			s.EndByte = min(s.StartByte+max(0, next()*100), int(size))
			s.ImplByte, s.ModifiersByte, s.KeywordByte = max(-1, next()), max(-1, next()*1000), max(-1, s.StartByte+next())
			syms = append(syms, s)
		}
		k := symcache.Key{Path: "/src/pkg/a.py", Lang: "python", Size: int64(size), ModTime: 1, ChangeTime: 2, Inode: 3, Device: 4}
		e := symcache.Entry{Symbols: syms}
		dir := t.TempDir()
		c := open(t, dir, symcache.Options{Build: "b"})
		if err := c.PutEntry(k, time.Now(), e); err != nil || c.Flush() != nil {
			t.Fatal(err)
		}
		got, ok := open(t, dir, symcache.Options{Build: "b"}).GetEntry(k)
		if !ok || !sameEntry(got, e) {
			t.Fatalf("read back %v:\n got %+v\nwant %+v", ok, got.Symbols, e.Symbols)
		}
	})
}
