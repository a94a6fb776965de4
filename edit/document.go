package edit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/symedit/symedit/internal/lines"
	"github.com/symedit/symedit/remedy"
)

// MaxFileSize is the largest file, in bytes, that Read accepts (100 MB).
const MaxFileSize = 100 << 20

// binarySniffLen is how many leading bytes Read searches for a NUL byte.
const binarySniffLen = 8000

// Line-ending styles, as Document.EOL reports them.
const (
	LF   = "\n"
	CRLF = "\r\n"
	CR   = "\r"
)

// UTF8BOM is the UTF-8 byte order mark, which a Document keeps in Content
// and leaves out of Text.
const UTF8BOM = "\xEF\xBB\xBF"

// Sentinel errors of Read and Commit; each comes wrapped in a *FileError.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
	ErrBinary     = errors.New("binary file")
	ErrEncoding   = errors.New("not UTF-8 text")
	ErrChanged    = errors.New("file changed since it was read")
)

// FileError is a file that cannot be read for editing or written back. Err
// is one of the sentinels above or an *fs.PathError from the system.
type FileError struct {
	Path   string
	Reason string // what is wrong, in words, without the path
	Err    error
	// remedy is the request change that writes the file anyway (an
	// allow_* option), or nil.
	remedy remedy.Remedy
}

// Error returns the path and the reason: "PATH: REASON".
func (e *FileError) Error() string { return e.Path + ": " + e.Reason }

// Remedy returns the request change that writes the file anyway, or nil
// when no option does: allow_hardlinks (ErrHardLink), allow_metadata_loss
// (ErrMetadata), allow_read_only and, for another user's file,
// allow_metadata_loss too (ErrNotWritable).
func (e *FileError) Remedy() remedy.Remedy { return e.remedy }

// WithRemedy sets the request change that writes the file anyway (see
// Remedy) on a FileError being built, and returns it.
func (e *FileError) WithRemedy(r remedy.Remedy) *FileError {
	e.remedy = r
	return e
}

// Unwrap returns the sentinel or system error.
func (e *FileError) Unwrap() error { return e.Err }

// LineRange is one line of a text, as 0-based byte offsets into it: the
// line's content is [Start, End), without its line ending, and Next is the
// offset where the next line starts (End plus the ending's length; End
// itself for a last line without an ending).
type LineRange struct {
	Start, End int
	Next       int
}

// Document is a text file read for editing. It is immutable.
type Document struct {
	// Path is the path the file was read from.
	Path string
	// Content is every byte of the file as read, BOM included.
	Content []byte
	// BOM reports a UTF-8 byte order mark at the start of Content.
	BOM bool
	// Text is Content without the BOM: what parsers and line numbers see.
	Text []byte
	// EOL is the dominant line ending: LF, CRLF or CR.
	EOL string
	// Mode is the file's mode when it was read (zero for NewDocument).
	Mode fs.FileMode

	idx    *lineIndex // the lines of Text, split on first use
	origin Origin     // the file it was read from; see Origin
}

// Origin is the file a Document was read from, as the file layer that
// read it records it; the zero Origin is a Document from NewDocument,
// read from no file.
type Origin struct {
	// Name is the file system's name for the file, relative to the file
	// layer's root when it is confined to one; "" means Path.
	Name string
	// Real is the file's real absolute path, every link resolved (see
	// RealPath).
	Real string
	// Info is the information (fstat) of the descriptor Content was read
	// from (see Info); nil for a file that does not exist yet.
	Info fs.FileInfo
	// Absent reports that the file does not exist yet: a commit creates
	// it.
	Absent bool
}

// NewFileDocument is NewDocument for content read from the file o
// describes, with mode the file's mode: the file layer's constructor.
// Its errors are NewDocument's.
func NewFileDocument(path string, content []byte, mode fs.FileMode, o Origin) (*Document, error) {
	d, err := NewDocument(path, content)
	if err != nil {
		return nil, err
	}
	d.Mode, d.origin = mode, o
	return d, nil
}

// Origin returns the file the document was read from (the zero Origin
// for a Document from NewDocument).
func (d *Document) Origin() Origin { return d.origin }

// Info returns the information (fstat) of the descriptor Content was read
// from, taken after the open and before the read: the identity (device,
// inode) and the size and times of the file actually read, whatever a
// path resolved before or after names. It is nil for a Document from
// NewDocument or for a missing file from ReadOrNew. A Files over a file
// system other than the operating system's (a test's wrapper) gives the
// information that file system's Stat returned just before the read.
func (d *Document) Info() fs.FileInfo { return d.origin.Info }

// NewDocument checks content as Read does (encoding, binary) and splits it
// into lines. It does no I/O; path only names the document in errors.
func NewDocument(path string, content []byte) (*Document, error) {
	if enc := WideBOM(content); enc != "" {
		return nil, &FileError{Path: path, Reason: "file is " + enc + " (byte order mark found); symedit edits UTF-8 only", Err: ErrEncoding}
	}
	sniff := content[:min(len(content), binarySniffLen)]
	if i := bytes.IndexByte(sniff, 0); i >= 0 {
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("binary file (NUL byte at offset %d)", i), Err: ErrBinary}
	}
	if !utf8.Valid(content) {
		off := invalidUTF8(content)
		return nil, &FileError{Path: path, Reason: fmt.Sprintf("not valid UTF-8 (first bad byte at offset %d)", off), Err: ErrEncoding}
	}
	// The Document and its line index are one allocation; the index is
	// filled on first use, so a file only searched is never split.
	a := &struct {
		d   Document
		idx lineIndex
	}{d: Document{Path: path, Content: content, Text: content}}
	d := &a.d
	if bytes.HasPrefix(content, []byte(UTF8BOM)) {
		d.BOM, d.Text = true, content[len(UTF8BOM):]
	}
	d.EOL = DetectEOL(d.Text)
	a.idx.text, a.idx.atCR = d.Text, d.EOL == CR
	d.idx = &a.idx
	return d, nil
}

// lineIndex is the lines of a Document's Text, split on first use (by any
// goroutine: a Document is immutable and may be shared). A copy of the
// Document shares it.
type lineIndex struct {
	once  sync.Once
	text  []byte // the Document's Text
	atCR  bool   // split at lone CR (the dominant ending is CR), else at LF
	lines []LineRange
}

// LineRanges returns the lines of d's Text, splitting it the first time;
// LineRanges()[n-1] is line n. The slice is shared: callers must not
// modify it. A Document not made by NewDocument (a literal) is split on
// every call.
func (d *Document) LineRanges() []LineRange {
	if d.idx == nil {
		return splitLines(d.Text, DetectEOL(d.Text) == CR)
	}
	x := d.idx
	x.once.Do(func() { x.lines = splitLines(x.text, x.atCR) })
	return x.lines
}

// LineRangesOf returns the lines of text as a Document of it splits them:
// at lone CR when CR is its dominant ending, else at LF (a CR before it
// belonging to the ending).
func LineRangesOf(text []byte) []LineRange { return splitLines(text, DetectEOL(text) == CR) }

// DetectEOL returns the dominant line ending of text, the one the lines an
// edit writes get so that they match their neighbours: CRLF if CRLF
// outnumbers both lone LF and lone CR, else LF if lone LF outnumbers lone
// CR, else CR if there is any, else LF.
func DetectEOL(text []byte) string { return lines.DominantEndingBytes(text) }

// splitLines splits text into lines at sep ('\r' when atCR, else '\n', a
// CR before it belonging to the ending), in one allocation of the exact
// size: the separators are counted first.
func splitLines(text []byte, atCR bool) []LineRange {
	sep := byte('\n')
	if atCR {
		sep = '\r'
	}
	n := bytes.Count(text, []byte{sep})
	if len(text) > 0 && text[len(text)-1] != sep {
		n++ // a last line without an ending
	}
	if n == 0 {
		return nil
	}
	out := make([]LineRange, 0, n)
	for start := 0; start < len(text); {
		i := bytes.IndexByte(text[start:], sep)
		if i < 0 {
			out = append(out, LineRange{start, len(text), len(text)})
			break
		}
		end := start + i
		if !atCR && end > start && text[end-1] == '\r' {
			end--
		}
		out = append(out, LineRange{start, end, start + i + 1})
		start += i + 1
	}
	return out
}

// LineCount returns the number of lines. A final line ending does not start
// another line: "a\nb\n" has 2 lines, "a\nb" has 2, "" has 0.
func (d *Document) LineCount() int { return len(d.LineRanges()) }

// Line returns line n (1-based) without its line ending. It panics if n is
// out of range, like a slice index.
func (d *Document) Line(n int) string {
	l := d.LineRanges()[n-1]
	return string(d.Text[l.Start:l.End])
}

// Lines returns lines first to last (1-based, inclusive) without their line
// endings.
func (d *Document) Lines(first, last int) []string {
	out := make([]string, 0, last-first+1)
	for n := first; n <= last; n++ {
		out = append(out, d.Line(n))
	}
	return out
}

// LineAt returns the 1-based number of the line holding byte offset off of
// Text (0-based). An offset at or past the end of Text belongs to the last
// line; an empty document has no lines and gives 0.
func (d *Document) LineAt(off int) int {
	ls := d.LineRanges()
	lo, hi := 0, len(ls)
	for lo < hi {
		m := (lo + hi) / 2
		if ls[m].Next <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(ls) {
		return len(ls)
	}
	return lo + 1
}

// HasFinalNewline reports whether the last line ends with a line ending.
func (d *Document) HasFinalNewline() bool {
	ls := d.LineRanges()
	n := len(ls)
	return n > 0 && ls[n-1].Next > ls[n-1].End
}

// emptyLastEnding returns eol when the last of lines is empty, else "": an
// empty last line exists only with a line ending after it ("a\n" is one
// line, "a\n\n" two), so it gets one even where the file had none.
func emptyLastEnding(lines []string, eol string) string {
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		return eol
	}
	return ""
}

// ReplaceLines returns the Edit (in offsets of Content, BOM included) that
// replaces lines first to last (1-based, inclusive) by newLines, each
// written with the document's EOL. Empty newLines deletes the lines. The
// replaced lines' last ending is kept as it was: if the last replaced line
// had none (the file's end without a final newline), the result has none
// either, unless its last line is empty, which exists only with an ending. first may be last+1 to insert before line first without
// replacing anything (first = LineCount()+1 appends). It returns an error if
// the range is out of bounds.
func (d *Document) ReplaceLines(first, last int, newLines []string) (Edit, error) {
	ls := d.LineRanges()
	n := len(ls)
	if first < 1 || last < first-1 || last > n || first > n+1 {
		return Edit{}, fmt.Errorf("%s: line range %d-%d is outside the file's %d lines", d.Path, first, last, n)
	}
	base := len(d.Content) - len(d.Text)
	var b bytes.Buffer
	for i, l := range newLines {
		b.WriteString(l)
		if i < len(newLines)-1 {
			b.WriteString(d.EOL)
		}
	}
	if last < first { // pure insertion before line first
		var at int
		if first <= n {
			at = ls[first-1].Start
			if len(newLines) > 0 {
				b.WriteString(d.EOL)
			}
		} else { // append after the last line
			at = len(d.Text)
			if len(newLines) > 0 {
				if n > 0 && !d.HasFinalNewline() {
					return Edit{Start: base + at, End: base + at, New: d.EOL + b.String() + emptyLastEnding(newLines, d.EOL)}, nil
				}
				b.WriteString(d.EOL)
			}
		}
		return Edit{Start: base + at, End: base + at, New: b.String()}, nil
	}
	start, end := ls[first-1].Start, ls[last-1].Next
	ending := string(d.Text[ls[last-1].End:ls[last-1].Next])
	if len(newLines) == 0 {
		if ending == "" && first > 1 && ls[first-2].End > ls[first-2].Start {
			// Deleting through an unterminated last line: drop the previous
			// line's ending so the file still ends without one (unless that
			// line is empty: an empty last line needs its ending to exist).
			start = ls[first-2].End
		}
		return Edit{Start: base + start, End: base + end, New: ""}, nil
	}
	if ending != "" {
		b.WriteString(d.EOL)
	} else {
		b.WriteString(emptyLastEnding(newLines, d.EOL))
	}
	return Edit{Start: base + start, End: base + end, New: b.String()}, nil
}

// RealPath returns the absolute path of the file a Document from Read
// stands for, as the kernel resolves it (not as the path's text reads): every
// symbolic link and ".." resolved in order, a relative link target from
// the folder the link really lives in, the final link followed; for a
// Document from ReadOrNew of a missing file, where Commit creates it. It
// is the file Commit writes, the name a diff header should give so that
// the diff applies to the file written. It is "" for a Document from
// NewDocument.
func (d *Document) RealPath() string { return d.origin.Real }

// IsNew reports a Document from ReadOrNew for a file that does not exist
// yet: Commit creates it.
func (d *Document) IsNew() bool { return d.origin.Absent }

// SHA256 returns the hex SHA-256 of the document's content as read.
func (d *Document) SHA256() string {
	sum := sha256.Sum256(d.Content)
	return hex.EncodeToString(sum[:])
}

// CheckSHA256 returns a *FileError wrapping ErrChanged unless the
// document's content has the SHA-256 want (hex, case-insensitive): the
// check of --expect-sha256, for a caller that read the file earlier.
func (d *Document) CheckSHA256(want string) error {
	if got := d.SHA256(); !strings.EqualFold(got, want) {
		return &FileError{Path: d.Path, Reason: fmt.Sprintf("the file's SHA-256 is %s, not the expected %s: it changed since it was read; nothing was written", got, strings.ToLower(want)), Err: ErrChanged}
	}
	return nil
}
