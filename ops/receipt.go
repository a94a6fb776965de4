package ops

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// SymbolChanges is what a write did to its file's symbols: the symbols of
// the content before and after compared by name path (so that a
// symbol's move down the file, which changes its lines but not its text,
// is no change). Added and Changed give each symbol's range in the new
// content and the SHA-256 of its new text, which the next call's
// expect_symbol_sha256 takes, so that an agent can chain its next edit
// without reading the file again; Removed gives the ranges the removed
// symbols had. A symbol whose nested symbol changed has changed too (a
// class whose method's body was rewritten). Each list is in source
// order.
type SymbolChanges struct {
	Added   []SymbolReceipt `json:"added,omitempty" jsonschema:"The symbols the edit added, with their ranges in the new content and the SHA-256 of their text; omitted when none."`
	Changed []SymbolReceipt `json:"changed,omitempty" jsonschema:"The symbols whose text the edit changed (a class whose method changed included), with their ranges in the new content and the SHA-256 of their new text (the next call's expect_symbol_sha256); a symbol that only moved is not listed; omitted when none."`
	Removed []Symbol        `json:"removed,omitempty" jsonschema:"The symbols the edit removed, with the ranges they had in the content before; omitted when none."`
}

// Empty reports whether c lists no symbol (a nil c included).
func (c *SymbolChanges) Empty() bool {
	return c == nil || len(c.Added)+len(c.Changed)+len(c.Removed) == 0
}

// SymbolReceipt is a symbol as a write left it: its name path, kind and
// range in the new content (1-based lines, byte columns, end exclusive)
// and SHA256, the SHA-256 of its text as show's symbol_sha256 counts it
// (its whole lines, each ending in "\n").
type SymbolReceipt struct {
	Symbol
	SHA256 string `json:"sha256" jsonschema:"The SHA-256 of the symbol's new text, as show's symbol_sha256 counts it: pass it as the next call's expect_symbol_sha256."`
}

// symbolSHA256 returns the SHA-256, in 64 lowercase hexadecimal digits,
// of s's text in doc (s is one of doc's symbols) as show prints it
// (symbolText). It is what expect_symbol_sha256 compares with.
func symbolSHA256(doc *edit.Document, s symbols.Symbol) string {
	sum := symbolSum(doc, s)
	return hex.EncodeToString(sum[:])
}

// symbolSum is symbolSHA256's sum, raw, as the symbol index stores it:
// the SHA-256 of symbolText(doc, s), hashed from doc's lines as they
// are, without building that text (a cold symbols run hashes every
// symbol of every file). Lines that end in a lone LF are hashed as one
// run of bytes; another line ending (CRLF, CR, none) is hashed as "\n".
func symbolSum(doc *edit.Document, s symbols.Symbol) [sha256.Size]byte {
	r := doc.LineRanges()
	first, last := doc.LineAt(s.StartByte), doc.LineAt(max(s.StartByte, s.EndByte-1))
	h := sha256.New()
	nl := []byte{'\n'}
	start := r[first-1].Start // the start of the run of lines not yet hashed
	for n := first; n < last; n++ {
		if l := r[n-1]; l.Next != l.End+1 || doc.Text[l.End] != '\n' {
			h.Write(doc.Text[start:l.End])
			h.Write(nl)
			start = l.Next
		}
	}
	h.Write(doc.Text[start:r[last-1].End])
	h.Write(nl)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// symbolText is the text symbolSHA256 hashes: s's whole lines in doc,
// from the line of its first byte to that of its last, line endings
// normalized to "\n", each ending in one.
func symbolText(doc *edit.Document, s symbols.Symbol) string {
	first, last := doc.LineAt(s.StartByte), doc.LineAt(max(s.StartByte, s.EndByte-1))
	return strings.Join(doc.Lines(first, last), "\n") + "\n"
}

// wholeLines returns s's whole lines in doc as they are, from the start
// of its first line to the end of its last (its line ending left out):
// equal whole lines are equal texts (symbolText), with no copy made.
func wholeLines(doc *edit.Document, s symbols.Symbol) []byte {
	r := doc.LineRanges()
	first, last := doc.LineAt(s.StartByte), doc.LineAt(max(s.StartByte, s.EndByte-1))
	return doc.Text[r[first-1].Start:r[last-1].End]
}

// textEdits returns edits, byte edits of doc.Content that made
// newDoc.Content, as symbols.ExtractEdits takes them: sorted by offset, in
// offsets of doc.Text and newDoc.Text (without their byte order marks).
// It returns nil, for ExtractEdits to find the changed bytes itself,
// when only one of the contents has a byte order mark or an edit touches
// it; ExtractEdits checks the rest (edits that overlap, or do not make
// newDoc's text, are ignored there).
func textEdits(doc, newDoc *edit.Document, edits []edit.Edit) []lang.Edit {
	if len(edits) == 0 || doc.BOM != newDoc.BOM {
		return nil
	}
	shift := 0
	if doc.BOM {
		shift = len(edit.UTF8BOM)
	}
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b edit.Edit) int { return cmp.Compare(a.Start, b.Start) })
	out := make([]lang.Edit, 0, len(sorted))
	delta := 0
	for _, e := range sorted {
		if e.Start < shift {
			return nil
		}
		s := e.Start - shift
		out = append(out, lang.Edit{Start: s, End: e.End - shift, NewStart: s + delta, NewEnd: s + delta + len(e.New)})
		delta += len(e.New) - (e.End - e.Start)
	}
	return out
}

// symbolChanges compares before, the symbols of ch's content before
// (ch.doc.Text), with those of its content after (newDoc): afterFile when the
// caller extracted them already (extractOwnAfter), else read from after,
// the guard's parse of it, when the guard handed one over (only the
// top-level definitions the edit touched, where symbols.ExtractEdits
// can), else extracted here (in Go, by go/parser over the declarations
// ch's edits touched only, where symbols.ExtractEdits can). It returns
// nil when the symbols after cannot be extracted (the call ran out of
// time): the receipt then says nothing of symbols rather than something
// wrong.
func symbolChanges(ctx context.Context, ch *change, newDoc *edit.Document, beforeFile symbols.File, after *lang.Parse, afterFile *symbols.File) *SymbolChanges {
	before := beforeFile.Symbols
	var f symbols.File
	if afterFile != nil {
		f = *afterFile
	} else {
		if after == nil || !after.Of(ch.lang, newDoc.Text) {
			after = &lang.Parse{Lang: ch.lang, Text: newDoc.Text}
		}
		var err error
		if f, err = symbols.ExtractEdits(ctx, beforeFile, ch.doc.Text, after, textEdits(ch.doc, newDoc, ch.edits)); err != nil {
			return nil
		}
	}
	old := make(map[string]symbols.Symbol, len(before))
	for _, s := range before {
		old[s.NamePath] = s
	}
	out := &SymbolChanges{}
	seen := make(map[string]bool, len(f.Symbols))
	for _, s := range f.Symbols {
		seen[s.NamePath] = true
		prev, ok := old[s.NamePath]
		// Texts are compared, not hashed: most symbols are unchanged, and
		// only the ones listed need a hash. Their lines as they are, when
		// equal, spare building the normalized texts.
		if ok && prev.Kind == s.Kind && (bytes.Equal(wholeLines(ch.doc, prev), wholeLines(newDoc, s)) ||
			symbolText(ch.doc, prev) == symbolText(newDoc, s)) {
			continue
		}
		r := SymbolReceipt{Symbol: symbolOf(s), SHA256: symbolSHA256(newDoc, s)}
		if ok {
			out.Changed = append(out.Changed, r)
		} else {
			out.Added = append(out.Added, r)
		}
	}
	for _, s := range before {
		if !seen[s.NamePath] {
			out.Removed = append(out.Removed, symbolOf(s))
		}
	}
	return out
}
