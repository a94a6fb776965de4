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
// and a function after it, which tree-sitter loses without the masking;
// a function with #if groups that end in the middle of a statement
// (sqlite3GetToken), which without it runs on over the one after it.
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
SQLITE_PRIVATE i64 sqlite3GetToken(const unsigned char *z, int *tokenType){
  switch( aiClass[*z] ){
    case CC_DOT: {
#ifndef SQLITE_OMIT_FLOATING_POINT
      if( !sqlite3Isdigit(z[1]) )
#endif
      {
        *tokenType = TK_DOT;
        return 1;
      }
      /* no break */ deliberate_fall_through
    }
    case CC_DIGIT: {
#ifndef SQLITE_OMIT_HEX_INTEGER
      if( z[0]=='0' && (z[1]=='x' || z[1]=='X') && sqlite3Isxdigit(z[2]) ){
        for(i=3; sqlite3Isxdigit(z[i]); i++){}
        return i;
      }else
#endif
      {
        for(i=0; sqlite3Isdigit(z[i]); i++){}
      }
      return i;
    }
  }
  return 1;
}
SQLITE_PRIVATE int sqlite3RunParser(Parse *pParse, const char *zSql){
  return 0;
}
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
		`function sqlite3GetToken 15:1-41:2 "SQLITE_PRIVATE i64 sqlite3GetToken(const unsigned char *z, int *tokenType){"`,
		`function sqlite3RunParser 42:1-44:2 "SQLITE_PRIVATE int sqlite3RunParser(Parse *pParse, const char *zSql){"`,
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

// cppGoogletestSource is C++ in shapes googletest writes (excerpts of
// its gtest.h, gtest-port.h and gtest-message.h, BSD-3-Clause, Copyright
// Google Inc., shortened): macros after a function's parameters,
// declaring macros' calls on lines of their own without a ";",
// typedefs of reference types and conversions to them (named after the
// type, as clang names them, without the parameters).
const cppGoogletestSource = `namespace testing {
class UnitTest {
 public:
  int Run() GTEST_MUST_USE_RESULT_;
  const TestSuite* current_test_suite() const GTEST_LOCK_EXCLUDED_(mutex_);
  typedef std::ostream& (*BasicNarrowIoManip)(std::ostream&);
};
namespace internal {
GTEST_IMPL_CMP_HELPER_(NE, !=)
GTEST_IMPL_CMP_HELPER_(LT, <)
GTEST_API_ AssertionResult CmpHelperSTREQ(const char* s1_expression,
                                          const char* s1);
template <typename T>
struct ConstRef {
  typedef const T& type;
};
struct Holder {
  operator const Impl&() const { return impl; }
  operator T*() const { return nullptr; }
};
}  // namespace internal
}  // namespace testing
int RUN_ALL_TESTS() GTEST_MUST_USE_RESULT_;
GTEST_ATTRIBUTE_PRINTF_(2, 3)
static void ColoredPrintf(GTestColor color, const char* fmt, ...) {}
`

// TestCppGoogletestSymbols checks that the symbols of googletest's
// shapes are all found, with clang's ranges: a declaration with a macro
// after its parameters ends at its ";", one with an attribute's macro
// on the line above begins at the macro, and the declarations after
// the macros' calls are not lost.
func TestCppGoogletestSymbols(t *testing.T) {
	l, err := lang.ByName("cpp")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(cppGoogletestSource)
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
		`namespace testing 1:1-22:2 "namespace testing {"`,
		`class testing/UnitTest 2:1-7:3 "class UnitTest {"`,
		`method testing/UnitTest/Run 4:3-4:36 "int Run() GTEST_MUST_USE_RESULT_;"`,
		`method testing/UnitTest/current_test_suite 5:3-5:76 "const TestSuite* current_test_suite() const GTEST_LOCK_EXCLUDED_(mutex_);"`,
		`type testing/UnitTest/BasicNarrowIoManip 6:3-6:62 "typedef std::ostream& (*BasicNarrowIoManip)(std::ostream&);"`,
		`namespace testing/internal 8:1-21:2 "namespace internal {"`,
		`function testing/internal/CmpHelperSTREQ 11:1-12:59 "GTEST_API_ AssertionResult CmpHelperSTREQ(const char* s1_expression,"`,
		`struct testing/internal/ConstRef 13:1-16:3 "template <typename T>"`,
		`type testing/internal/ConstRef/type 15:3-15:25 "typedef const T& type;"`,
		`struct testing/internal/Holder 17:1-20:3 "struct Holder {"`,
		`method testing/internal/Holder/operator const Impl& 18:3-18:48 "operator const Impl&() const { return impl; }"`,
		`method testing/internal/Holder/operator T* 19:3-19:42 "operator T*() const { return nullptr; }"`,
		`function RUN_ALL_TESTS 23:1-23:44 "int RUN_ALL_TESTS() GTEST_MUST_USE_RESULT_;"`,
		`function ColoredPrintf 24:1-25:69 "GTEST_ATTRIBUTE_PRINTF_(2, 3)"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// cppSymbolsOf returns the symbols of the C++ text src, one line each:
// kind, name path, 1-based start and end line:column, and the first
// line of the range.
func cppSymbolsOf(t *testing.T, src []byte) []string {
	t.Helper()
	l, err := lang.ByName("cpp")
	if err != nil {
		t.Fatal(err)
	}
	syms, err := symbols.Extract(context.Background(), src, l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range syms {
		got = append(got, fmt.Sprintf("%s %s %d:%d-%d:%d %q", s.Kind, s.NamePath, s.Start.Line, s.Start.Column,
			s.End.Line, s.End.Column, firstLine(string(src[s.StartByte:s.EndByte]))))
	}
	return got
}

// cppDefinitionMacroSource is C++ in a shape of googletest's
// gmock-more-actions_test.cc (BSD-3-Clause, Copyright Google Inc.,
// shortened): a macro's call whose arguments hold a template's head and
// whose body follows it, and declarations after it in the same
// namespaces.
const cppDefinitionMacroSource = `namespace testing {
namespace gmock_more_actions_test {
ACTION_TEMPLATE(ReturnSmartPointer,
                HAS_1_TEMPLATE_PARAMS(template <typename Pointee> class,
                                      Pointer),
                AND_1_VALUE_PARAMS(pointee)) {
  return Pointer<pointee_type>(new pointee_type(pointee));
}
template <typename T1, typename T2>
struct GiantTemplate {
 public:
  explicit GiantTemplate(int a_value) : value(a_value) {}
  int value;
};
}  // namespace gmock_more_actions_test
}  // namespace testing
`

// TestCppDefinitionMacroSymbols checks that a macro's call heading a
// definition costs neither the namespaces around it their ends nor the
// declarations after it, and is a function named after the macro.
func TestCppDefinitionMacroSymbols(t *testing.T) {
	got := cppSymbolsOf(t, []byte(cppDefinitionMacroSource))
	want := []string{
		`namespace testing 1:1-16:2 "namespace testing {"`,
		`namespace testing/gmock_more_actions_test 2:1-15:2 "namespace gmock_more_actions_test {"`,
		`function testing/gmock_more_actions_test/ACTION_TEMPLATE 3:1-8:2 "ACTION_TEMPLATE(ReturnSmartPointer,"`,
		`struct testing/gmock_more_actions_test/GiantTemplate 9:1-14:3 "template <typename T1, typename T2>"`,
		`constructor testing/gmock_more_actions_test/GiantTemplate/GiantTemplate 12:3-12:58 "explicit GiantTemplate(int a_value) : value(a_value) {}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// cppDeletedSource is C++ with functions deleted or defaulted outside a
// class, which the grammar reads as declarations with an initializer:
// googletest's ReturnRef (gmock-actions.h, BSD-3-Clause, Copyright
// Google Inc.), an operator defaulted outside its class, and a variable
// and a function pointer with initializers, which are no symbols.
const cppDeletedSource = `namespace testing {
template <typename R, R* = nullptr>
internal::ReturnRefAction<R> ReturnRef(R&&) = delete;
}  // namespace testing
Widget& Widget::operator=(const Widget&) = default;
int count = limit;
int (*handler)(int) = nullptr;
`

// TestCppDeletedFunctionSymbols checks that deleted and defaulted
// functions are functions (or methods), ranging to their ";", as clang's
// do, and that other initialized declarations stay variables.
func TestCppDeletedFunctionSymbols(t *testing.T) {
	got := cppSymbolsOf(t, []byte(cppDeletedSource))
	want := []string{
		`namespace testing 1:1-4:2 "namespace testing {"`,
		`function testing/ReturnRef 2:1-3:54 "template <typename R, R* = nullptr>"`,
		`method Widget/operator= 5:1-5:52 "Widget& Widget::operator=(const Widget&) = default;"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
