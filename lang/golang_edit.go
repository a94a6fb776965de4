package lang

// Go's symbol extraction after an edit: go/parser on the top-level
// declarations the edits touched only, the rest taken from the
// extraction before.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// goExtractEdits is Go's Definition.ExtractEdits: goExtract(newText),
// where newText is oldText after edits (sorted, not overlapping) and old
// and oldLayout are goExtract(oldText)'s, computed from the regions of
// newText the edits touched (goRegions, the syntax guard's regions: runs
// of whole top-level declarations after the imports) parsed each after a
// package clause of its own, and the definitions and declarations
// outside them taken from old and oldLayout, shifted by the change in
// length before them.
//
// Why it is goExtract's result: go/parser parses top-level declarations
// one after the other from the same state, so a declaration's syntax
// tree, and the definitions found in it, do not depend on the
// declarations around it; a region without error and an oldText without
// error make a newText without error (the argument of goCheck). ok is
// false, and the caller parses newText whole, when oldLayout does not fit
// oldText, an edit has no region (it is in the package clause or the
// imports, or on a line shared with a declaration outside it), a region
// does not parse alone without error or holds an import declaration, or
// a definition or declaration of old crosses a region's edge. parsed is
// the number of bytes handed to go/parser, the package clauses included.
func goExtractEdits(oldText, newText []byte, edits []Edit, old []Def, oldLayout *Layout) (defs []Def, layout *Layout, parsed int, ok bool) {
	d, ok := goDeclsFrom(oldLayout, len(oldText))
	if !ok || len(edits) == 0 {
		return nil, nil, 0, false
	}
	if defs, layout, ok := goRespelledDefs(oldText, newText, edits, old, oldLayout); ok {
		return defs, layout, 0, true
	}
	spans, ok := goRegions(d, oldText, edits)
	if !ok {
		return nil, nil, 0, false
	}
	layout = &Layout{PackageEnd: oldLayout.PackageEnd, Decls: make([]Decl, 0, len(oldLayout.Decls)+1)}
	var i, j int                    // the next definition of old, the next declaration of oldLayout
	var shift int                   // newText's offsets less oldText's after the spans so far
	prevEnd := oldLayout.PackageEnd // the end of the previous span, in oldText
	for _, sp := range spans {
		if sp.start < prevEnd || sp.end < sp.start || sp.newStart != sp.start+shift ||
			sp.newEnd < sp.newStart || sp.newEnd > len(newText) {
			return nil, nil, 0, false
		}
		// Before the span: as they were, shifted.
		for ; i < len(old) && old[i].Start < sp.start; i++ {
			if old[i].End > sp.start {
				return nil, nil, 0, false
			}
			defs = append(defs, shiftDef(old[i], shift))
		}
		for ; j < len(oldLayout.Decls) && oldLayout.Decls[j].Start < sp.start; j++ {
			if oldLayout.Decls[j].End > sp.start {
				return nil, nil, 0, false
			}
			x := oldLayout.Decls[j]
			layout.Decls = append(layout.Decls, Decl{Start: x.Start + shift, End: x.End + shift, Import: x.Import})
		}
		// In the span: dropped, and found again in the region after.
		for ; i < len(old) && old[i].Start < sp.end; i++ {
			if old[i].End > sp.end {
				return nil, nil, 0, false
			}
		}
		for ; j < len(oldLayout.Decls) && oldLayout.Decls[j].Start < sp.end; j++ {
			if oldLayout.Decls[j].End > sp.end {
				return nil, nil, 0, false
			}
		}
		rdefs, rdecls, ok := goExtractRegion(newText, sp.newStart, sp.newEnd)
		parsed += len(goRegionHead) + sp.newEnd - sp.newStart
		if !ok {
			return nil, nil, parsed, false
		}
		defs = append(defs, rdefs...)
		layout.Decls = append(layout.Decls, rdecls...)
		shift = sp.newEnd - sp.end
		prevEnd = sp.end
	}
	if shift != len(newText)-len(oldText) {
		return nil, nil, parsed, false // the edits do not make newText
	}
	for ; i < len(old); i++ {
		if old[i].Start < prevEnd {
			return nil, nil, parsed, false // not in source order: not goExtract's
		}
		defs = append(defs, shiftDef(old[i], shift))
	}
	for ; j < len(oldLayout.Decls); j++ {
		x := oldLayout.Decls[j]
		layout.Decls = append(layout.Decls, Decl{Start: x.Start + shift, End: x.End + shift, Import: x.Import})
	}
	return defs, layout, parsed, true
}

// shiftDef returns d with its offsets moved by delta bytes.
func shiftDef(d Def, delta int) Def {
	d.Start += delta
	d.End += delta
	d.NameStart += delta
	return d
}

// goExtractRegion returns the definitions and top-level declarations
// of text[start:end], a region goRegions found (whole top-level
// declarations after the imports), parsed after a package clause of its
// own with goExtract's mode, their offsets into text; ok is false when
// go/parser reports an error, the region holds an import declaration, or
// it does not end with a line ending short of the end of text (its last
// token would run into the next declaration): goRegionOK's conditions.
func goExtractRegion(text []byte, start, end int) (defs []Def, decls []Decl, ok bool) {
	region := text[start:end]
	if len(region) > 0 && region[len(region)-1] != '\n' && end != len(text) {
		return nil, nil, false
	}
	src := make([]byte, 0, len(goRegionHead)+len(region))
	src = append(append(src, goRegionHead...), region...)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false
	}
	for _, d := range f.Decls {
		if g, isGen := d.(*ast.GenDecl); isGen && g.Tok == token.IMPORT {
			return nil, nil, false // imports must come first
		}
	}
	// A position p of src is at offset p-base in src, and at that less
	// the head plus start in text.
	base := fset.File(f.Package).Base() + len(goRegionHead) - start
	defs, layout := goDefs(f, text, func(p token.Pos) int { return int(p) - base })
	return defs, layout.Decls, true
}

// goRespelledDefs is goExtractEdits with no parse, for edits that only
// respell tokens (goRespelledLines) away from every definition's head
// and every offset the extraction gives: go/parser's tree of newText is
// then oldText's, token for token, and so are the definitions and the
// layout, each offset moved by the change in length of the edited lines
// before it. ok is false, and the caller parses the regions, when an
// offset of old or oldLayout lies on an edited line (where a token's
// start may move within the line) or an edit lies between a
// definition's start and its name's end (a name, a method's receiver, a
// type's kind).
func goRespelledDefs(oldText, newText []byte, edits []Edit, old []Def, oldLayout *Layout) (defs []Def, layout *Layout, ok bool) {
	spans, ok := goRespelledLines(oldText, newText, edits)
	if !ok {
		return nil, nil, false
	}
	// move returns where off, an offset of oldText on no edited line,
	// is in newText; ok is false for one on an edited line. Offsets come
	// in no order, so each is a binary search over the lines.
	move := func(off int) (int, bool) {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > off })
		if i < len(spans) && spans[i][0] <= off {
			return 0, false
		}
		if i == 0 {
			return off, true
		}
		return off + spans[i-1][3] - spans[i-1][1], true
	}
	layout = &Layout{Decls: make([]Decl, len(oldLayout.Decls))}
	var okA, okB bool
	if layout.PackageEnd, okA = move(oldLayout.PackageEnd); !okA {
		return nil, nil, false
	}
	for i, x := range oldLayout.Decls {
		y := x
		if y.Start, okA = move(x.Start); !okA {
			return nil, nil, false
		}
		if y.End, okB = move(x.End); !okB {
			return nil, nil, false
		}
		layout.Decls[i] = y
	}
	if len(old) > 0 {
		defs = make([]Def, len(old)) // else nil, as goDefs leaves it
	}
	for i, x := range old {
		head := x.NameStart + len(x.Name)
		k := sort.Search(len(edits), func(k int) bool { return edits[k].End > x.Start })
		if k < len(edits) && edits[k].Start < head {
			return nil, nil, false // an edit in the head
		}
		y := x
		var okC bool
		y.Start, okA = move(x.Start)
		y.End, okB = move(x.End)
		y.NameStart, okC = move(x.NameStart)
		if !okA || !okB || !okC {
			return nil, nil, false
		}
		defs[i] = y
	}
	return defs, layout, true
}
