package ops

import (
	"crypto/sha256"
	"testing"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/symbols"
)

// TestSymbolSumHashesSymbolText: the sum hashed from a document's lines
// as they are is the SHA-256 of the normalized text (symbolText) for
// every range, in files whose lines end in LF, CRLF, CR, a mix of them,
// or no final line ending.
func TestSymbolSumHashesSymbolText(t *testing.T) {
	texts := []string{
		"a\nbb\n\nccc\nd",
		"a\nbb\n\nccc\nd\n",
		"a\r\nbb\r\n\r\nccc\r\nd\r\n",
		"a\rbb\r\rccc\rd",
		"a\r\nbb\n\nccc\r\nd\n",
		"a\nbb\r\n\r\nccc\nd",
		"x",
	}
	for _, text := range texts {
		doc, err := edit.NewDocument("a.py", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		n := len(doc.Text)
		for start := 0; start < n; start++ {
			for end := start + 1; end <= n; end++ {
				s := symbols.Symbol{StartByte: start, EndByte: end}
				want := sha256.Sum256([]byte(symbolText(doc, s)))
				if got := symbolSum(doc, s); got != want {
					t.Fatalf("%q [%d, %d): sum of %q differs", text, start, end, symbolText(doc, s))
				}
			}
		}
	}
}
