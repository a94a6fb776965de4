package lang

// Go's symbol extraction after an edit: go/parser on the top-level
// declarations the edits touched only, the rest taken from the
// extraction before.

import (
	"go/ast"
	"go/parser"
	"go/token"
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
