package edit

// The syntax guard's Go check: go/parser on the content before, and on
// the content after only the top-level declarations the edits touched.

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
)

// guardGoMode is how the guard runs go/parser: every error, no object
// resolution (it reports nothing that is not syntax), no comments kept.
const guardGoMode = parser.AllErrors | parser.SkipObjectResolution

// guardGoParse parses src with go/parser and returns its errors as points
// and, when there are none, the file's syntax tree and its token.File.
func guardGoParse(src []byte) (*token.File, *ast.File, []guardProblem) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, guardGoMode)
	if err == nil {
		return fset.File(f.Pos()), f, nil
	}
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return nil, nil, []guardProblem{{kind: KindGoParser, msg: err.Error()}}
	}
	out := make([]guardProblem, 0, len(list))
	for _, e := range list {
		off := min(max(e.Pos.Offset, 0), len(src))
		out = append(out, guardProblem{start: off, end: off, kind: KindGoParser, msg: e.Msg})
	}
	return nil, nil, out
}

// guardGoErrors returns go/parser's errors in src, as points.
func guardGoErrors(src []byte) []guardProblem {
	_, _, errs := guardGoParse(src)
	return errs
}

// guardGoCheck returns go/parser's errors in oldText and newText (the Go
// texts before and after edits, sorted and trimmed as guardTextEdits
// returns them) and whether it parsed only a region of newText.
//
// oldText is parsed whole. When it has no error, newText is checked by
// parsing only the region of it that the edits touched (guardGoRegion),
// after a package clause: a region without error there makes a whole
// without error, since go/parser parses top-level declarations one after
// the other from the same state (at the start of a line, at top level)
// and, with object resolution skipped, checks nothing across them but
// that imports come first. When the region has errors, or there is no
// such region, newText is parsed whole, so that the errors reported are
// the whole file's.
func guardGoCheck(oldText, newText []byte, edits []guardEdit) (r guardExtraResult, region bool) {
	if len(edits) == 0 {
		r.after = guardGoErrors(newText)
		r.before = r.after
		return r, false
	}
	tf, f, errs := guardGoParse(oldText)
	r.before = errs
	if len(errs) == 0 {
		if s, e, ok := guardGoRegion(tf, f, oldText, edits); ok {
			e += len(newText) - len(oldText)
			if guardGoRegionOK(newText[s:e], e == len(newText)) {
				return r, true
			}
		}
	}
	r.after = guardGoErrors(newText)
	return r, false
}

// guardGoRegion returns the region [start, end) of text, a Go file that
// go/parser parsed without error into f (tf its token.File), that holds
// every edit and consists of whole top-level declarations (with the
// comments and blank lines between them), with ok false when there is no
// such region. start is the start of a line and is not inside a
// declaration, the package clause or an import declaration, and the bytes
// from the end of the declaration before it to start are a line ending,
// white space or a line comment; end is the end of the text, or the start
// of the line of a declaration's first token with only white space before
// that token on its line. No import declaration follows start.
func guardGoRegion(tf *token.File, f *ast.File, text []byte, edits []guardEdit) (start, end int, ok bool) {
	if tf == nil || f == nil || f.Name == nil {
		return 0, 0, false
	}
	off := func(p token.Pos) int { return tf.Offset(p) }
	lo, hi := edits[0].start, edits[0].end
	for _, e := range edits {
		lo, hi = min(lo, e.start), max(hi, e.end)
	}
	// prevEnd: the end of the package clause, of the imports and of every
	// declaration that ends before lo.
	prevEnd := off(f.Name.End())
	for _, d := range f.Decls {
		if g, isGen := d.(*ast.GenDecl); isGen && g.Tok == token.IMPORT {
			prevEnd = max(prevEnd, off(d.End()))
		}
	}
	for _, d := range f.Decls {
		if e := off(d.End()); e < lo {
			prevEnd = max(prevEnd, e)
		}
	}
	nl := bytes.IndexByte(text[prevEnd:], '\n')
	if nl < 0 {
		return 0, 0, false
	}
	start = prevEnd + nl + 1
	// An edit in the package clause or the imports, or on the line of the
	// end of the declaration before; a block comment that start would be
	// inside.
	if start > lo || bytes.Contains(text[prevEnd:start], []byte("/*")) {
		return 0, 0, false
	}
	// A declaration that starts on the line of the end of the one before
	// (after a ";") and that an edit is in.
	for _, d := range f.Decls {
		if s, e := off(d.Pos()), off(d.End()); s < start && e > start {
			return 0, 0, false
		}
	}
	end = len(text)
	for _, d := range f.Decls {
		s := off(d.Pos())
		if s < hi {
			continue
		}
		ls := bytes.LastIndexByte(text[:s], '\n') + 1
		if ls < hi || len(bytes.TrimLeft(text[ls:s], " \t\f\r")) > 0 {
			return 0, 0, false
		}
		end = ls // declarations do not overlap: none straddles end
		break
	}
	return start, end, true
}

// guardGoRegionOK reports whether go/parser accepts region, a region of a
// Go file after an edit (guardGoRegion), as the declarations of a file of
// its own, without an import declaration, and the region ends with a line
// ending unless it is the end of the file (atEOF).
func guardGoRegionOK(region []byte, atEOF bool) bool {
	if len(region) > 0 && region[len(region)-1] != '\n' && !atEOF {
		return false // its last token would run into the next declaration
	}
	src := make([]byte, 0, len(guardGoRegionHead)+len(region))
	src = append(append(src, guardGoRegionHead...), region...)
	_, f, errs := guardGoParse(src)
	if len(errs) > 0 || f == nil {
		return false
	}
	for _, d := range f.Decls {
		if g, isGen := d.(*ast.GenDecl); isGen && g.Tok == token.IMPORT {
			return false // imports must come first
		}
	}
	return true
}

// guardGoRegionHead is the package clause a region is parsed after.
const guardGoRegionHead = "package p\n"
