package lang

// The syntax guard's Go check: go/parser on the content before, and on
// the content after only the top-level declarations the edits touched.

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
)

// goDecl is a top-level declaration of a Go file as goRegionAt
// uses it: byte offsets of its first token (start) and of a point at or
// after the end of its last token with only white space or a comment's
// start between them, on the same line (end); imp marks an import
// declaration.
type goDecl struct {
	start, end int
	imp        bool
}

// goDecls is the top-level layout of a Go file go/parser accepts:
// the end of its package clause (as a goDecl's end) and its
// declarations in source order.
type goDecls struct {
	pkgEnd int
	decls  []goDecl
}

// goDeclsOf returns the layout of the file go/parser parsed into f
// (tf its token.File), with ok false when f has no package clause.
func goDeclsOf(tf *token.File, f *ast.File) (d goDecls, ok bool) {
	if tf == nil || f == nil || f.Name == nil {
		return d, false
	}
	d.pkgEnd = tf.Offset(f.Name.End())
	for _, x := range f.Decls {
		g, isGen := x.(*ast.GenDecl)
		d.decls = append(d.decls, goDecl{tf.Offset(x.Pos()), tf.Offset(x.End()), isGen && g.Tok == token.IMPORT})
	}
	return d, true
}

// goDeclsFrom returns the layout l (a caller's go/parser parse of
// a text of n bytes) as goDecls, with ok false when l is nil or does
// not fit such a text: its package clause and declarations in order, not
// overlapping, inside [0, n].
func goDeclsFrom(l *Layout, n int) (d goDecls, ok bool) {
	if l == nil || l.PackageEnd <= 0 || l.PackageEnd > n {
		return d, false
	}
	d.pkgEnd = l.PackageEnd
	prev := l.PackageEnd
	for _, x := range l.Decls {
		if x.Start < prev || x.End < x.Start || x.End > n {
			return goDecls{}, false
		}
		d.decls = append(d.decls, goDecl{x.Start, x.End, x.Import})
		prev = x.End
	}
	return d, true
}

// goScanDecls returns the layout of src, a Go file the caller knows
// go/parser accepts (Prior.Clean), found with go/scanner
// alone, at about a third of a parse's cost: in a file without syntax
// errors, a semicolon (written, or inserted at a line end) at bracket
// depth zero ends the package clause or a top-level declaration, and the
// next token starts the next declaration. A declaration ends where its
// last token before that semicolon ends, as go/ast's End. ok is false
// when the scanner reports an error or the tokens are not shaped like a
// file (no package clause, a declaration not starting with a keyword,
// brackets that do not balance): the caller's word was wrong, and the
// guard parses instead.
func goScanDecls(src []byte) (d goDecls, ok bool) {
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(tf, src, nil, 0)
	depth, first, lastEnd := 0, true, 0
	inPkg, inDecl := true, false
	var cur goDecl
	for {
		pos, tok, lit := s.Scan()
		if s.ErrorCount > 0 {
			return d, false
		}
		if tok == token.EOF {
			break
		}
		off := tf.Offset(pos)
		if first && tok != token.PACKAGE {
			return d, false
		}
		first = false
		if tok == token.SEMICOLON && depth == 0 {
			switch {
			case inPkg:
				d.pkgEnd, inPkg = lastEnd, false
			case inDecl:
				cur.end, inDecl = lastEnd, false
				d.decls = append(d.decls, cur)
			default:
				return d, false // an empty declaration: not a file go/parser accepts
			}
			continue
		}
		lastEnd = off + goTokenLen(src[off:], tok, lit)
		if !inPkg && !inDecl {
			if tok != token.FUNC && tok != token.TYPE && tok != token.VAR && tok != token.CONST && tok != token.IMPORT {
				return d, false
			}
			cur, inDecl = goDecl{start: off, imp: tok == token.IMPORT}, true
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth--; depth < 0 {
				return d, false
			}
		}
	}
	if first || inPkg || inDecl || depth != 0 {
		return d, false
	}
	return d, true
}

// goMode is how the guard runs go/parser: every error, no object
// resolution (it reports nothing that is not syntax), no comments kept.
const goMode = parser.AllErrors | parser.SkipObjectResolution

// goParse parses src with go/parser and returns its errors as points
// and, when there are none, the file's syntax tree and its token.File.
func goParse(src []byte) (*token.File, *ast.File, []Problem) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, goMode)
	if err == nil {
		return fset.File(f.Pos()), f, nil
	}
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return nil, nil, []Problem{{Message: err.Error()}}
	}
	out := make([]Problem, 0, len(list))
	for _, e := range list {
		off := min(max(e.Pos.Offset, 0), len(src))
		out = append(out, Problem{Start: off, End: off, Message: e.Msg})
	}
	return nil, nil, out
}

// goErrors returns go/parser's errors in src, as points.
func goErrors(src []byte) []Problem {
	_, _, errs := goParse(src)
	return errs
}

// goCheck is Go's Checker.CheckEdits: it returns go/parser's errors in
// oldText and newText (the Go texts before and after edits, sorted and
// trimmed) and how much of them it parsed.
//
// Edits that respell identifiers, comments or string literals within
// their lines (goRespelled) leave go/parser's errors as they were: then
// nothing is parsed (CheckedTokens).
//
// Otherwise oldText is parsed whole. When it has no error, newText is
// checked by parsing only the regions of it that the edits touched
// (goRegions: one per run of edited top-level declarations), each after
// a package clause of its own: regions without error make a whole
// without error, since go/parser parses top-level declarations one after
// the other from the same state (at the start of a line, at top level)
// and, with object resolution skipped, checks nothing across them but
// that imports come first; the declarations between two regions are the
// bytes of oldText, which parsed without error from that same state
// (CheckedRegions). When a region has errors, or an edit has no such
// region, newText is parsed whole, so that the errors reported are the
// whole file's (CheckedWhole).
//
// prior.Clean is the caller's word that go/parser accepts oldText:
// oldText is then not parsed but its top-level declarations are taken
// from prior.Layout (the caller's parse) when it fits oldText, else
// scanned for (goScanDecls); when that finds no region for the edits, or
// a region has errors, oldText is parsed as without it, so the result is
// the same.
func goCheck(oldText, newText []byte, edits []Edit, prior Prior) (before, after []Problem, scope CheckScope) {
	if len(edits) == 0 {
		after = goErrors(newText)
		return after, after, CheckedWhole
	}
	if goRespelled(oldText, newText, edits) {
		return nil, nil, CheckedTokens
	}
	if prior.Clean {
		d, ok := goDeclsFrom(prior.Layout, len(oldText))
		if !ok {
			d, ok = goScanDecls(oldText)
		}
		if ok && goRegionsOK(d, oldText, newText, edits) {
			return nil, nil, CheckedRegions
		}
	}
	tf, f, errs := goParse(oldText)
	if d, ok := goDeclsOf(tf, f); ok && len(errs) == 0 && goRegionsOK(d, oldText, newText, edits) {
		return errs, nil, CheckedRegions
	}
	return errs, goErrors(newText), CheckedWhole
}

// goTokenLen returns the length in bytes of the token tok, with the
// literal text lit, that go/scanner found at the start of rest: a raw
// string's up to its closing backquote (go/scanner drops the CRs from its
// literal), an identifier's, keyword's or other literal's the literal's,
// an operator's its spelling.
func goTokenLen(rest []byte, tok token.Token, lit string) int {
	switch {
	case tok == token.STRING && len(rest) > 0 && rest[0] == '`':
		if i := bytes.IndexByte(rest[1:], '`'); i >= 0 {
			return i + 2
		}
		return len(rest)
	case lit != "":
		return len(lit)
	}
	return len(tok.String())
}

// goSpan is a region of a Go file that goRegions found:
// [start, end) in the content before the edits, [newStart, newEnd) in the
// content after, byte offsets, exclusive ends.
type goSpan struct {
	start, end, newStart, newEnd int
}

// goRegions returns the regions of text (a Go file that go/parser
// accepts, with the top-level layout d) that hold edits (sorted, not
// overlapping, as Checker.CheckEdits gets them), each a region
// goRegionAt finds for its edits, in order and not overlapping: the
// region of each edit, merged with the one before when they overlap or
// touch. ok is false when an edit has no region. It costs O(log n) per
// edit for n declarations, so a replacement with thousands of matches
// stays linear.
func goRegions(d goDecls, text []byte, edits []Edit) (out []goSpan, ok bool) {
	impEnd := d.pkgEnd // the end of the package clause and of every import
	for _, x := range d.decls {
		if x.imp {
			impEnd = max(impEnd, x.end)
		}
	}
	for _, e := range edits {
		s, end, ok := goRegionAt(d, impEnd, text, e.Start, e.End)
		if !ok {
			return nil, false
		}
		if n := len(out); n > 0 && s <= out[n-1].end {
			last := &out[n-1]
			last.end = max(last.end, end)
			last.newEnd = last.end + (e.NewEnd - e.End)
			continue
		}
		out = append(out, goSpan{s, end, s + (e.NewStart - e.Start), end + (e.NewEnd - e.End)})
	}
	return out, len(out) > 0
}

// goRegionAt returns the region [start, end) of text, a Go file that
// go/parser accepts, with the top-level layout d (impEnd the end of its
// package clause and imports), that holds the bytes [lo, hi) and consists
// of whole top-level declarations (with the comments and blank lines
// between them), with ok false when there is no such region. start is the
// start of a line and is not inside a declaration, the package clause or
// an import declaration, and the bytes from the end of the declaration
// before it to start are a line ending, white space or a line comment;
// end is the end of the text, or the start of the line of a declaration's
// first token with only white space before that token on its line. No
// import declaration follows start. Declarations are sorted and do not
// overlap, so each look-up is a binary search.
func goRegionAt(d goDecls, impEnd int, text []byte, lo, hi int) (start, end int, ok bool) {
	// prevEnd: the end of the package clause, of the imports and of every
	// declaration that ends before lo (the last of them ends last).
	prevEnd := impEnd
	if k := sort.Search(len(d.decls), func(i int) bool { return d.decls[i].end >= lo }); k > 0 {
		prevEnd = max(prevEnd, d.decls[k-1].end)
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
	// (after a ";") and that an edit is in: only the last declaration
	// starting before start can hold start.
	if k := sort.Search(len(d.decls), func(i int) bool { return d.decls[i].start >= start }); k > 0 && d.decls[k-1].end > start {
		return 0, 0, false
	}
	end = len(text)
	if k := sort.Search(len(d.decls), func(i int) bool { return d.decls[i].start >= hi }); k < len(d.decls) {
		s := d.decls[k].start
		ls := bytes.LastIndexByte(text[:s], '\n') + 1
		if ls < hi || len(bytes.TrimLeft(text[ls:s], " \t\f\r")) > 0 {
			return 0, 0, false
		}
		end = ls // declarations do not overlap: none straddles end
	}
	return start, end, true
}

// goRegionsOK reports whether every region of newText that the
// edits of oldText (layout d, which go/parser accepts) touched parses
// without error alone (goRegions, goRegionOK); false when an
// edit has no region.
func goRegionsOK(d goDecls, oldText, newText []byte, edits []Edit) bool {
	spans, ok := goRegions(d, oldText, edits)
	if !ok {
		return false
	}
	for _, sp := range spans {
		if !goRegionOK(newText[sp.newStart:sp.newEnd], sp.newEnd == len(newText)) {
			return false
		}
	}
	return true
}

// goRegionOK reports whether go/parser accepts region, a region of a
// Go file after an edit (goRegions), as the declarations of a file of
// its own, without an import declaration, and the region ends with a line
// ending unless it is the end of the file (atEOF).
func goRegionOK(region []byte, atEOF bool) bool {
	if len(region) > 0 && region[len(region)-1] != '\n' && !atEOF {
		return false // its last token would run into the next declaration
	}
	src := make([]byte, 0, len(goRegionHead)+len(region))
	src = append(append(src, goRegionHead...), region...)
	_, f, errs := goParse(src)
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

// goRegionHead is the package clause a region is parsed after.
const goRegionHead = "package p\n"
