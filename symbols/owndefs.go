package symbols

import "github.com/symedit/symedit/lang"

// assembleDefs returns the symbols of src from the definitions that l's
// own parser found (lang.Language.OwnExtract: go/parser for Go): the same
// []Symbol, field by field, as extractTree gives for a source that parser
// accepts, since both end in extractor.assemble. An own parser's
// definition has no decorators or modifiers: its ImplByte, ModifiersByte
// and KeywordByte are its start, or, for one an outline reader found
// (lang.Language.Outline), its ImplByte is its start and its
// ModifiersByte and KeywordByte its Keyword (where it begins after its
// decorators; a language with an outline has no modifiers). The namings
// are assemble's.
func assembleDefs(src []byte, l *lang.Language, defs []lang.Def) ([]Symbol, []naming) {
	cands := make([]*candidate, len(defs))
	for i, d := range defs {
		start, kw := uint32(d.Start), uint32(d.Start)
		if d.Keyword > d.Start {
			kw = uint32(d.Keyword)
		}
		cands[i] = &candidate{
			Candidate: lang.Candidate{Kind: d.Kind, NameText: d.Name, Prefix: d.Prefix, HasPrefix: d.HasPrefix},
			startByte: start,
			endByte:   uint32(d.End),
			implByte:  start,
			modByte:   kw,
			kwByte:    kw,
			nameByte:  uint32(d.NameStart),
		}
	}
	x := &extractor{src: src, rules: l.Rules(), lines: newLineIndex(src), tree: lang.NewTree(src, nil, nil)}
	return x.assemble(cands)
}
