package edit

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// WideBOM names the UTF-16 or UTF-32 encoding whose byte order mark starts
// b ("UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"), or returns "" when
// b starts with none.
func WideBOM(b []byte) string {
	switch {
	case len(b) >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0:
		return "UTF-32LE"
	case len(b) >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF:
		return "UTF-32BE"
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return "UTF-16LE"
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return "UTF-16BE"
	}
	return ""
}

func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// CheckContent refuses new content for doc that Read would refuse to read
// back, so that symedit never writes a file it could not edit again:
// over MaxFileSize bytes (ErrTooLarge), a NUL
// byte in the first 8,000 bytes or more NUL bytes than doc's content had
// (ErrBinary), a UTF-16 or UTF-32 byte order mark or invalid UTF-8
// (ErrEncoding). The error is a *FileError for doc.Path saying that
// nothing was written; nil means the content may be written. The file
// layer's commit (files.Files.Commit) runs it before writing anything, and
// a dry run runs it so that it refuses what the real run would refuse.
func CheckContent(doc *Document, content []byte) error {
	refuse := func(err error, format string, args ...any) error {
		return &FileError{Path: doc.Path, Reason: "the new content " + fmt.Sprintf(format, args...) + "; nothing was written", Err: err}
	}
	if len(content) > MaxFileSize {
		return refuse(ErrTooLarge, "is %d bytes, over the %d-byte limit symedit reads files up to", len(content), MaxFileSize)
	}
	if enc := WideBOM(content); enc != "" {
		return refuse(ErrEncoding, "starts with a %s byte order mark; symedit writes UTF-8 only", enc)
	}
	if i := bytes.IndexByte(content[:min(len(content), binarySniffLen)], 0); i >= 0 {
		return refuse(ErrBinary, "has a NUL byte at offset %d (a binary file)", i)
	}
	if n, was := bytes.Count(content, []byte{0}), bytes.Count(doc.Content, []byte{0}); n > was {
		return refuse(ErrBinary, "has %d NUL bytes where the file had %d (the first at offset %d)", n, was, bytes.IndexByte(content, 0))
	}
	if !utf8.Valid(content) {
		return refuse(ErrEncoding, "is not valid UTF-8 (first bad byte at offset %d)", invalidUTF8(content))
	}
	return nil
}
