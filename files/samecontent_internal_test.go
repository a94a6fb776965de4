package files

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestSameContent checks the commit's last comparison of a file with the
// content it was read with, around its 64 KiB block size, through readers
// that return a byte at a time or half of what is asked, and a failing
// reader.
func TestSameContent(t *testing.T) {
	for _, size := range []int{0, 1, 100, 64<<10 - 1, 64 << 10, 64<<10 + 1, 3*64<<10 + 7} {
		want := bytes.Repeat([]byte("0123456789abcdef\n"), size/17+1)[:size]
		cases := map[string]struct {
			file []byte
			same bool
		}{
			"equal":         {want, true},
			"one more byte": {append(bytes.Clone(want), 'x'), false},
		}
		if size > 0 {
			last := bytes.Clone(want)
			last[size-1] ^= 1
			first := bytes.Clone(want)
			first[0] ^= 1
			cases["last byte differs"] = struct {
				file []byte
				same bool
			}{last, false}
			cases["first byte differs"] = struct {
				file []byte
				same bool
			}{first, false}
			cases["one byte short"] = struct {
				file []byte
				same bool
			}{want[:size-1], false}
		}
		for name, c := range cases {
			for rname, wrap := range map[string]func(io.Reader) io.Reader{
				"whole": func(r io.Reader) io.Reader { return r },
				"byte":  iotest.OneByteReader,
				"half":  iotest.HalfReader,
			} {
				got, err := sameContent(wrap(bytes.NewReader(c.file)), want)
				if err != nil || got != c.same {
					t.Errorf("size %d, %s, %s reader: %v, %v; want %v", size, name, rname, got, err, c.same)
				}
			}
		}
	}
	boom := errors.New("boom")
	if _, err := sameContent(iotest.ErrReader(boom), []byte("abc")); !errors.Is(err, boom) {
		t.Errorf("a failing reader: %v, want its error", err)
	}
}
