package symbols

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// TestQueriesUseKnownCaptures checks that every language's query captures only @name, @scope and @definition.<kind> with a
// kind this package defines, so that a typo in a .scm file fails here
// rather than producing an unknown kind.
func TestQueriesUseKnownCaptures(t *testing.T) {
	kinds := map[Kind]bool{
		KindClass: true, KindInterface: true, KindEnum: true, KindRecord: true, KindAnnotation: true,
		KindStruct: true, KindType: true, KindFunction: true, KindMethod: true, KindConstructor: true, KindDestructor: true,
		KindNamespace: true, KindTrait: true, KindImpl: true, KindUnion: true, KindMacro: true,
		KindProperty: true, KindIndexer: true, KindEvent: true, KindOperator: true, KindDelegate: true,
	}
	for _, l := range lang.Languages() {
		q, err := l.SymbolsQuery()
		if err != nil {
			t.Errorf("%s: %v", l.Name, err)
			continue
		}
		hasDef := false
		for i := uint32(0); i < q.CaptureCount(); i++ {
			name := q.CaptureNameForId(i)
			switch {
			case name == "name", name == "scope":
			case strings.HasPrefix(name, "definition."):
				hasDef = true
				if k := Kind(strings.TrimPrefix(name, "definition.")); !kinds[k] {
					t.Errorf("%s: capture @%s: unknown kind %q", l.Name, name, k)
				}
			default:
				t.Errorf("%s: unexpected capture @%s", l.Name, name)
			}
		}
		if !hasDef {
			t.Errorf("%s: query captures no definitions", l.Name)
		}
	}
}
