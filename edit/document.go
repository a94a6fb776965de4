package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

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

// Unwrap returns the sentinel or system error.
func (e *FileError) Unwrap() error { return e.Err }

// line is one line of a Document's text, as byte offsets into Text.
type line struct {
	start, end int // content, end exclusive, without the line ending
	next       int // start of the next line (end plus the ending's length)
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

	idx    *lineIndex  // the lines of Text, split on first use
	name   string      // the file system's name for the file ("" means Path)
	real   string      // the file's real absolute path, final link followed; see RealPath
	info   fs.FileInfo // the file's information from the descriptor read; see Info
	absent bool        // the file does not exist yet: Commit creates it
}

// Info returns the information (fstat) of the descriptor Content was read
// from, taken after the open and before the read: the identity (device,
// inode) and the size and times of the file actually read, whatever a
// path resolved before or after names. It is nil for a Document from
// NewDocument or for a missing file from ReadOrNew. A Files over a file
// system other than the operating system's (a test's wrapper) gives the
// information that file system's Stat returned just before the read.
func (d *Document) Info() fs.FileInfo { return d.info }

// fsName returns the name Commit uses for the document's file.
func (d *Document) fsName() string {
	if d.name != "" {
		return d.name
	}
	return d.Path
}

// Read reads path for editing, unconfined and refusing hard links: it is
// Files.Read of Open(Options{}). It follows a symbolic link, and refuses
// (with a *FileError) anything but a regular file (ErrNotRegular), a file
// with several hard links (ErrHardLink), a file over MaxFileSize
// (ErrTooLarge), a UTF-16 or UTF-32 byte order mark or invalid UTF-8
// (ErrEncoding), and a NUL byte in the first 8,000 bytes (ErrBinary).
// System errors come wrapped in a *FileError too.
func Read(path string) (*Document, error) {
	return (&Files{fsys: osFS{}}).Read(path)
}

// NewDocument checks content as Read does (encoding, binary) and splits it
// into lines. It does no I/O; path only names the document in errors.
func NewDocument(path string, content []byte) (*Document, error) {
	if enc := wideBOM(content); enc != "" {
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
	if bytes.HasPrefix(content, utf8BOM) {
		d.BOM, d.Text = true, content[len(utf8BOM):]
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
	lines []line
}

// lines returns d's lines, splitting Text the first time. A Document not
// made by NewDocument (a literal) is split on every call.
func (d *Document) lines() []line {
	if d.idx == nil {
		return splitLines(d.Text, DetectEOL(d.Text) == CR)
	}
	x := d.idx
	x.once.Do(func() { x.lines = splitLines(x.text, x.atCR) })
	return x.lines
}

// DetectEOL returns the dominant line ending of text, by the chunk spec's
// rule (seed 000): CRLF if CRLF outnumbers both lone LF and lone CR, else LF
// if lone LF outnumbers lone CR, else CR if there is any, else LF.
func DetectEOL(text []byte) string { return lines.DominantEndingBytes(text) }

// splitLines splits text into lines at sep ('\r' when atCR, else '\n', a
// CR before it belonging to the ending), in one allocation of the exact
// size: the separators are counted first.
func splitLines(text []byte, atCR bool) []line {
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
	out := make([]line, 0, n)
	for start := 0; start < len(text); {
		i := bytes.IndexByte(text[start:], sep)
		if i < 0 {
			out = append(out, line{start, len(text), len(text)})
			break
		}
		end := start + i
		if !atCR && end > start && text[end-1] == '\r' {
			end--
		}
		out = append(out, line{start, end, start + i + 1})
		start += i + 1
	}
	return out
}

// LineCount returns the number of lines. A final line ending does not start
// another line: "a\nb\n" has 2 lines, "a\nb" has 2, "" has 0.
func (d *Document) LineCount() int { return len(d.lines()) }

// Line returns line n (1-based) without its line ending. It panics if n is
// out of range, like a slice index.
func (d *Document) Line(n int) string {
	l := d.lines()[n-1]
	return string(d.Text[l.start:l.end])
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
	ls := d.lines()
	lo, hi := 0, len(ls)
	for lo < hi {
		m := (lo + hi) / 2
		if ls[m].next <= off {
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
	ls := d.lines()
	n := len(ls)
	return n > 0 && ls[n-1].next > ls[n-1].end
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
	ls := d.lines()
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
			at = ls[first-1].start
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
	start, end := ls[first-1].start, ls[last-1].next
	ending := string(d.Text[ls[last-1].end:ls[last-1].next])
	if len(newLines) == 0 {
		if ending == "" && first > 1 && ls[first-2].end > ls[first-2].start {
			// Deleting through an unterminated last line: drop the previous
			// line's ending so the file still ends without one (unless that
			// line is empty: an empty last line needs its ending to exist).
			start = ls[first-2].end
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
