package edit_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/files"
	"github.com/symedit/symedit/internal/goroot"
	"github.com/symedit/symedit/internal/testfile"
)

func TestDetectEOL(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"none", "no line ending at all", edit.LF},
		{"empty", "", edit.LF},
		{"lf", "a\nb\nc\n", edit.LF},
		{"crlf", "a\r\nb\r\nc\r\n", edit.CRLF},
		{"cr", "a\rb\rc\r", edit.CR},
		{"single lf", "\n", edit.LF},
		{"single crlf", "\r\n", edit.CRLF},
		{"single cr", "\r", edit.CR},
		// CRLF must outnumber both lone LF and lone CR.
		{"crlf majority over lf", "a\r\nb\r\nc\n", edit.CRLF},
		{"crlf majority over cr", "a\r\nb\r\nc\r", edit.CRLF},
		{"crlf ties lf", "a\r\nb\n", edit.LF},
		{"crlf ties cr", "a\r\nb\r", edit.CR},
		{"crlf ties lf and cr", "a\r\nb\nc\r", edit.CR},
		{"lf minority under crlf", "a\nb\r\nc\r\nd\r\n", edit.CRLF},
		// Else LF if lone LF outnumbers lone CR.
		{"lf over cr", "a\nb\nc\r", edit.LF},
		{"lf over cr despite crlf", "a\nb\nc\r\nd\r", edit.LF},
		{"lf ties cr", "a\nb\r", edit.CR},
		{"cr over lf", "a\rb\rc\n", edit.CR},
		// A CR directly before LF is one CRLF, never a CR plus an LF.
		{"crlf is not cr plus lf", "a\r\n", edit.CRLF},
		{"cr cr lf", "a\r\r\n", edit.CR}, // one CRLF and one lone CR: a tie, so CR
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := edit.DetectEOL([]byte(tt.text)); got != tt.want {
				t.Errorf("DetectEOL(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestNewDocumentEncoding(t *testing.T) {
	bom := "\xEF\xBB\xBF"
	tests := []struct {
		name    string
		content []byte
		wantErr error  // nil: accepted
		reason  string // substring of FileError.Reason
	}{
		{"utf-8", []byte("héllo wörld\n"), nil, ""},
		{"utf-8 bom", []byte(bom + "x = 1\n"), nil, ""},
		{"utf-16le bom", []byte("\xFF\xFEx\x00\n\x00"), edit.ErrEncoding, "UTF-16LE"},
		{"utf-16be bom", []byte("\xFE\xFF\x00x\x00\n"), edit.ErrEncoding, "UTF-16BE"},
		{"utf-32le bom", []byte("\xFF\xFE\x00\x00x\x00\x00\x00"), edit.ErrEncoding, "UTF-32LE"},
		{"utf-32be bom", []byte("\x00\x00\xFE\xFF\x00\x00\x00x"), edit.ErrEncoding, "UTF-32BE"},
		{"utf-16le bom alone", []byte("\xFF\xFE"), edit.ErrEncoding, "UTF-16LE"},
		{"nul at start", []byte("\x00abc\n"), edit.ErrBinary, "offset 0"},
		{"nul in first 8000", append(bytes.Repeat([]byte("a"), 7999), 0), edit.ErrBinary, "offset 7999"},
		// Only the first 8000 bytes are sniffed: a NUL after them is text.
		{"nul at 8000", append(bytes.Repeat([]byte("a"), 8000), 0, '\n'), nil, ""},
		{"invalid utf-8", []byte("ok\nbad \xC3\x28 byte\n"), edit.ErrEncoding, "offset 7"},
		{"latin-1", []byte("caf\xE9\n"), edit.ErrEncoding, "offset 3"},
		{"truncated rune at end", []byte("abc\xE2\x82"), edit.ErrEncoding, "offset 3"},
		{"invalid after bom", []byte(bom + "\xFF"), edit.ErrEncoding, "offset 3"},
		{"surrogate half", []byte("\xED\xA0\x80\n"), edit.ErrEncoding, "offset 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := bytes.Clone(tt.content)
			doc, err := edit.NewDocument("f.txt", tt.content)
			if !bytes.Equal(tt.content, orig) {
				t.Fatal("NewDocument modified its input")
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("NewDocument: %v", err)
				}
				if !bytes.Equal(doc.Content, tt.content) {
					t.Errorf("Content = %q, want the input", doc.Content)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			var fe *edit.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err is %T, want *edit.FileError", err)
			}
			if fe.Path != "f.txt" || !strings.Contains(fe.Reason, tt.reason) {
				t.Errorf("FileError{Path: %q, Reason: %q}, want path f.txt and reason containing %q", fe.Path, fe.Reason, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "f.txt: ") {
				t.Errorf("Error() = %q, want it to start with the path", err.Error())
			}
		})
	}
}

func TestNewDocumentBOM(t *testing.T) {
	content := []byte("\xEF\xBB\xBFline one\r\nline two\r\n")
	doc, err := edit.NewDocument("bom.txt", content)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.BOM {
		t.Error("BOM = false, want true")
	}
	if !bytes.Equal(doc.Content, content) {
		t.Errorf("Content = %q, want the BOM kept", doc.Content)
	}
	if string(doc.Text) != "line one\r\nline two\r\n" {
		t.Errorf("Text = %q, want the content without the BOM", doc.Text)
	}
	if doc.Line(1) != "line one" {
		t.Errorf("Line(1) = %q, want no BOM in line 1", doc.Line(1))
	}
	if doc.EOL != edit.CRLF {
		t.Errorf("EOL = %q, want CRLF", doc.EOL)
	}

	// A BOM alone is an empty document; a BOM in the middle is text.
	only, err := edit.NewDocument("only.txt", []byte("\xEF\xBB\xBF"))
	if err != nil || !only.BOM || len(only.Text) != 0 || only.LineCount() != 0 {
		t.Errorf("BOM-only file: doc=%+v err=%v, want BOM, empty Text, 0 lines", only, err)
	}
	mid, err := edit.NewDocument("mid.txt", []byte("a\n\xEF\xBB\xBFb\n"))
	if err != nil || mid.BOM || mid.Line(2) != "\xEF\xBB\xBFb" {
		t.Errorf("BOM after the start: err=%v BOM=%v line 2=%q, want no BOM and the bytes kept in line 2", err, mid.BOM, mid.Line(2))
	}
}

func TestDocumentLines(t *testing.T) {
	tests := []struct {
		name         string
		text         string
		eol          string
		lines        []string
		finalNewline bool
	}{
		{"empty", "", edit.LF, nil, false},
		{"lf", "a\nbb\nccc\n", edit.LF, []string{"a", "bb", "ccc"}, true},
		{"lf no final newline", "a\nbb\nccc", edit.LF, []string{"a", "bb", "ccc"}, false},
		{"crlf", "a\r\nbb\r\nccc\r\n", edit.CRLF, []string{"a", "bb", "ccc"}, true},
		{"crlf no final newline", "a\r\nbb\r\nccc", edit.CRLF, []string{"a", "bb", "ccc"}, false},
		{"cr only", "a\rbb\rccc\r", edit.CR, []string{"a", "bb", "ccc"}, true},
		{"cr no final newline", "a\rbb\rccc", edit.CR, []string{"a", "bb", "ccc"}, false},
		{"single line no ending", "only", edit.LF, []string{"only"}, false},
		{"single newline", "\n", edit.LF, []string{""}, true},
		{"blank lines", "\n\n\n", edit.LF, []string{"", "", ""}, true},
		// Mixed: split at LF; a CR before LF belongs to the ending, a lone
		// CR is part of the line.
		{"mixed mostly crlf", "a\r\nb\nc\r\nd\re\r\n", edit.CRLF, []string{"a", "b", "c", "d\re"}, true},
		{"mixed mostly lf", "a\nb\r\nc\n", edit.LF, []string{"a", "b", "c"}, true},
		// Mostly CR: split at CR; an LF is part of a line.
		{"mixed mostly cr", "a\rb\rc\nd\r", edit.CR, []string{"a", "b", "c\nd"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := edit.NewDocument("f", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if doc.EOL != tt.eol {
				t.Errorf("EOL = %q, want %q", doc.EOL, tt.eol)
			}
			if doc.LineCount() != len(tt.lines) {
				t.Fatalf("LineCount() = %d, want %d", doc.LineCount(), len(tt.lines))
			}
			for i, want := range tt.lines {
				if got := doc.Line(i + 1); got != want {
					t.Errorf("Line(%d) = %q, want %q", i+1, got, want)
				}
			}
			if n := len(tt.lines); n > 0 {
				if got := doc.Lines(1, n); !reflect.DeepEqual(got, tt.lines) {
					t.Errorf("Lines(1, %d) = %q, want %q", n, got, tt.lines)
				}
				if got := doc.Lines(n, n); !reflect.DeepEqual(got, tt.lines[n-1:]) {
					t.Errorf("Lines(%d, %d) = %q, want %q", n, n, got, tt.lines[n-1:])
				}
			}
			if got := doc.Lines(1, 0); len(got) != 0 {
				t.Errorf("Lines(1, 0) = %q, want none", got)
			}
			if got := doc.HasFinalNewline(); got != tt.finalNewline {
				t.Errorf("HasFinalNewline() = %v, want %v", got, tt.finalNewline)
			}
			// LineAt: every byte of Text belongs to the line whose content
			// or ending holds it; reconstruct that from the lines.
			want := make([]int, 0, len(tt.text))
			rest := tt.text
			for i, l := range tt.lines {
				if !strings.HasPrefix(rest, l) {
					t.Fatalf("line %d %q is not at %q", i+1, l, rest)
				}
				size := len(l) + endingLen(rest[len(l):], tt.eol)
				for range size {
					want = append(want, i+1)
				}
				rest = rest[size:]
			}
			if rest != "" {
				t.Fatalf("bytes %q after the last line", rest)
			}
			for off, w := range want {
				if got := doc.LineAt(off); got != w {
					t.Errorf("LineAt(%d) = %d, want %d", off, got, w)
				}
			}
			// At or past the end: the last line (0 for an empty document).
			for _, off := range []int{len(tt.text), len(tt.text) + 10} {
				if got := doc.LineAt(off); got != len(tt.lines) {
					t.Errorf("LineAt(%d) = %d, want %d", off, got, len(tt.lines))
				}
			}
		})
	}
}

// endingLen is the length of the line ending at the start of s in a
// document whose lines split at eol.
func endingLen(s, eol string) int {
	switch {
	case eol == edit.CR && strings.HasPrefix(s, "\r"):
		return 1
	case eol != edit.CR && strings.HasPrefix(s, "\r\n"):
		return 2
	case eol != edit.CR && strings.HasPrefix(s, "\n"):
		return 1
	}
	return 0
}

func TestLinePanicsOutOfRange(t *testing.T) {
	doc, err := edit.NewDocument("f", []byte("a\nb\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 3, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Line(%d) did not panic", n)
				}
			}()
			doc.Line(n)
		}()
	}
}

// TestReadRealFiles reads the real fixtures: lines joined with their
// endings rebuild Text exactly.
func TestReadRealFiles(t *testing.T) {
	for _, path := range append(testfile.RealSources(), "../testdata/src/typescript/scheduler.ts", "../testdata/src/go/atomic_type.go") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			doc, err := files.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			raw := testfile.Read(t, path)
			if !bytes.Equal(doc.Content, raw) || doc.Path != path {
				t.Fatal("Content or Path differ from the file")
			}
			if !doc.Mode.IsRegular() {
				t.Errorf("Mode = %v, want a regular file", doc.Mode)
			}
			if doc.EOL != edit.LF || !doc.HasFinalNewline() {
				t.Errorf("EOL %q, final newline %v; want LF, true", doc.EOL, doc.HasFinalNewline())
			}
			want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			if got := doc.Lines(1, doc.LineCount()); !reflect.DeepEqual(got, want) {
				t.Errorf("Lines differ from splitting the file at LF")
			}
		})
	}
}

func TestReadMissing(t *testing.T) {
	_, err := files.Read(filepath.Join(t.TempDir(), "missing.go"))
	var fe *edit.FileError
	if !errors.As(err, &fe) || !errors.Is(err, os.ErrNotExist) || fe.Reason != "no such file or folder" {
		t.Fatalf("err = %v, want a *FileError wrapping fs.ErrNotExist with reason %q", err, "no such file or folder")
	}
}

// TestDocumentLinesFirstUseConcurrent: a Document splits its lines on
// first use; goroutines that use a fresh Document at once all see the same
// lines (under the race detector, with no race), for LF, CRLF, CR and BOM
// files.
func TestDocumentLinesFirstUseConcurrent(t *testing.T) {
	for _, text := range []string{"a\nbb\nccc", "\xEF\xBB\xBFa\r\nbb\r\nccc\r\n", "a\rbb\rccc\r"} {
		doc, err := edit.NewDocument("f", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Go(func() {
				n := g%3 + 1
				switch g % 4 {
				case 0:
					if c := doc.LineCount(); c != 3 {
						errs <- fmt.Sprintf("LineCount() = %d, want 3", c)
					}
				case 1:
					if l := doc.Line(n); l != strings.Repeat(string(rune('a'+n-1)), n) {
						errs <- fmt.Sprintf("Line(%d) = %q", n, l)
					}
				case 2:
					if l := doc.LineAt(len(doc.Text) - 1); l != 3 {
						errs <- fmt.Sprintf("LineAt(last byte) = %d, want 3", l)
					}
				case 3:
					if f := doc.HasFinalNewline(); f != (strings.HasSuffix(text, "\r") || strings.HasSuffix(text, "\n")) {
						errs <- fmt.Sprintf("HasFinalNewline() = %v", f)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("%q: %s", text, e)
		}
	}
}

// BenchmarkNewDocument reads net/http's server.go from GOROOT (about
// 4,000 lines): "new" is NewDocument alone, as for a file that is only
// searched; "lines" also splits its lines, on first use.
func BenchmarkNewDocument(b *testing.B) {
	src := goroot.Src()
	if src == "" {
		b.Skip("go env GOROOT failed")
	}
	content, err := os.ReadFile(filepath.Join(src, "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	for _, lines := range []bool{false, true} {
		name := "new"
		if lines {
			name = "lines"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			for b.Loop() {
				doc, err := edit.NewDocument("server.go", content)
				if err != nil {
					b.Fatal(err)
				}
				if lines && doc.LineCount() == 0 {
					b.Fatal("no lines")
				}
			}
		})
	}
}
