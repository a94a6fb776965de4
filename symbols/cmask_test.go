package symbols_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
	"github.com/symedit/symedit/symbols"
)

// cMaskedSource is C in the shapes the C parser input masks (an excerpt
// of SQLite's amalgamation, public domain, shortened): macros before a
// declaration's type, a function whose #if branches each open its body,
// and a function after it, which tree-sitter loses without the masking.
const cMaskedSource = `SQLITE_PRIVATE SQLITE_NOINLINE int sqlite3WalkExprNN(Walker *pWalker, Expr *pExpr){
  return 0;
}
static void decodeIntArray(char *z, Index *pIndex){
#ifndef SQLITE_ENABLE_STAT4
  assert( pIndex!=0 ); {
#else
  if( pIndex ){
#endif
    pIndex->bUnordered = 0;
  }
}
SQLITE_PRIVATE sqlite3_int64 sqlite3BtreeMaxRecordSize(BtCursor*);
static SQLITE_NO_TSAN void after(void){}
`

// TestCMaskedPositions checks that the symbols of C that the parser
// reads masked are the file's: each range starts where clang's does (at
// SQLITE_PRIVATE, which the parser reads as static), and names, lines
// and byte offsets are the real text's.
func TestCMaskedPositions(t *testing.T) {
	l, err := lang.ByName("c")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(cMaskedSource)
	syms, err := symbols.Extract(context.Background(), src, l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range syms {
		got = append(got, fmt.Sprintf("%s %s %d:%d-%d:%d %q", s.Kind, s.NamePath, s.Start.Line, s.Start.Column,
			s.End.Line, s.End.Column, firstLine(string(src[s.StartByte:s.EndByte]))))
	}
	want := []string{
		`function sqlite3WalkExprNN 1:1-3:2 "SQLITE_PRIVATE SQLITE_NOINLINE int sqlite3WalkExprNN(Walker *pWalker, Expr *pExpr){"`,
		`function decodeIntArray 4:1-12:2 "static void decodeIntArray(char *z, Index *pIndex){"`,
		`function sqlite3BtreeMaxRecordSize 13:1-13:67 "SQLITE_PRIVATE sqlite3_int64 sqlite3BtreeMaxRecordSize(BtCursor*);"`,
		`function after 14:1-14:41 "static SQLITE_NO_TSAN void after(void){}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
