package lang

// The text a listing of many files parses, with the runs its blanking
// left collapsed, and the way back from its offsets to the source's.

import "sort"

// Listing is the text a listing of many files parses (Language.Listing)
// and the map from its byte offsets back to those of the source it was
// made from. The zero Listing is empty.
type Listing struct {
	// Text is what the parser reads. Callers must not modify it.
	Text []byte
	// cuts are the runs of white space that Text holds as one byte, in
	// order (none when Text has the source's offsets).
	cuts []listingCut
}

// listingCut is one run of white space of the source's listing input
// that Listing.Text holds as one byte.
type listingCut struct {
	at    int // the offset in Text of the byte that stands for the run
	shift int // the source's offset less Text's for every offset past at
}

// Collapsed reports whether Text's offsets differ from the source's:
// some run of white space was collapsed.
func (l Listing) Collapsed() bool { return len(l.cuts) > 0 }

// Start returns the byte offset in the source of the byte at off in
// Text (0 <= off <= len(Text)): a token's first byte, or its end when off
// is an exclusive end that no collapsed run precedes. Use End for an
// exclusive end.
func (l Listing) Start(off int) int {
	// The last cut before off: offsets past it moved by its shift.
	i := sort.Search(len(l.cuts), func(i int) bool { return l.cuts[i].at >= off })
	if i == 0 {
		return off
	}
	return off + l.cuts[i-1].shift
}

// End returns the byte offset in the source of off, an exclusive end in
// Text (the offset just past a token's last byte): one past where that
// last byte is in the source. End(0) is 0.
func (l Listing) End(off int) int {
	if off <= 0 {
		return 0
	}
	return l.Start(off-1) + 1
}

// Listing returns the text a listing of many files parses for src
// (ListingInput's), with each run of white space that holds blanked text
// collapsed to one byte when the language allows it
// (Definition.ListingCollapses): a line ending when the run holds one,
// else a space. A run that holds no blanked byte stays as it is, so white
// space inside a literal the listing keeps is never touched (its quotes
// bound it). The result's offsets map back to src's with Listing.Start
// and Listing.End.
func (l *Language) Listing(src []byte) Listing {
	in := l.ParserInput(src)
	blanked := l.ListingInput(src)
	if !l.def.ListingCollapses || len(in) == 0 || &blanked[0] == &in[0] {
		return Listing{Text: blanked} // nothing blanked
	}
	var (
		out  []byte
		cuts []listingCut
		from int // the start of the text not yet copied to out
	)
	for i := 0; i < len(blanked); {
		if !listingSpace(blanked[i]) {
			i++
			continue
		}
		j, changed, line := i, false, false
		for ; j < len(blanked) && listingSpace(blanked[j]); j++ {
			changed = changed || blanked[j] != in[j]
			line = line || blanked[j] == '\n'
		}
		if changed && j-i > 1 {
			if out == nil {
				out = make([]byte, 0, len(blanked)/2)
			}
			out = append(out, blanked[from:i]...)
			sep := byte(' ')
			if line {
				sep = '\n'
			}
			out = append(out, sep)
			cuts = append(cuts, listingCut{at: len(out) - 1, shift: j - len(out)})
			from = j
		}
		i = j
	}
	if len(cuts) == 0 {
		return Listing{Text: blanked}
	}
	return Listing{Text: append(out, blanked[from:]...), cuts: cuts}
}

// listingSpace reports white space as the listing collapses it: space,
// tab, line feed, vertical tab, form feed and carriage return.
func listingSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
