package lang_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// cMaskCases are C and C++ texts and the text their grammar reads
// (Language.ParserInput), one for each masking rule, most of them
// excerpts of real code: SQLite's amalgamation (public domain) and
// googletest (BSD-3-Clause, Copyright Google Inc.). "·" in want stands
// for a blank, to keep the columns visible.
var cMaskCases = []struct {
	name, lang, src, want string
}{
	{"branches each open a block (SQLite's decodeIntArray)", "c",
		"#ifndef SQLITE_ENABLE_STAT4\n  assert( pIndex!=0 ); {\n#else\n  if( pIndex ){\n#endif\n    pIndex->bUnordered = 0;\n  }\n",
		"···························\n  assert( pIndex!=0 ); {\n·····\n···············\n······\n    pIndex->bUnordered = 0;\n  }\n"},
	{"a branch that opens a block, closed in another group (SQLite's winWrite)", "c",
		"#if defined(X)\n  if( rc==0 ){\n#else\n  {\n#endif\n    n++;\n#if defined(X)\n  }\n#else\n  }\n#endif\n",
		"··············\n  if( rc==0 ){\n·····\n···\n······\n    n++;\n··············\n  }\n·····\n···\n······\n"},
	{"balanced branches stay", "c",
		"#ifdef SQLITE_DEBUG\nint f(void){ return 1; }\n#else\nint f(void){ return 0; }\n#endif\n",
		"#ifdef SQLITE_DEBUG\nint f(void){ return 1; }\n#else\nint f(void){ return 0; }\n#endif\n"},
	{"a group that an else follows (googletest's DefaultDeathTestFactory::Create)", "cpp",
		"bool Create() {\n#if GTEST_OS_WINDOWS\n  if (GTEST_FLAG_GET(death_test_style) == \"threadsafe\") {\n    *test = new WindowsDeathTest(statement, file, line);\n  }\n#else\n  if (GTEST_FLAG_GET(death_test_style) == \"threadsafe\") {\n    *test = new ExecDeathTest(statement, file, line);\n  }\n#endif  // GTEST_OS_WINDOWS\n  else {  // NOLINT\n    return false;\n  }\n  return true;\n}\n",
		"bool Create() {\n····················\n  if (GTEST_FLAG_GET(death_test_style) == \"threadsafe\") {\n    *test = new WindowsDeathTest(statement, file, line);\n  }\n·····\n·························································\n·····················································\n···\n···························\n  else {  // NOLINT\n    return false;\n  }\n  return true;\n}\n"},
	{"#if 0 around prose (SQLite's printf.c)", "c",
		"#if 0  /* script */\nforeach c {d s g z} {\n  scan $c %c x\n}\n#endif /* end */\n",
		"#if 0  /* script */\n·····················\n··············\n·\n#endif /* end */\n"},
	{"a comment in a #define that spans lines (SQLite's opcodes.h)", "c",
		"#define OPFLG_INITIALIZER {\\\n/*   0 */ 0x00, 0x00,\\\n}\nint x;\n",
		"#define OPFLG_INITIALIZER {\\\n········· 0x00, 0x00,\\\n}\nint x;\n"},
	{"a directive in an initializer (SQLite's win_mem_data)", "c",
		"static struct winMemData win_mem_data = {\n#ifndef NDEBUG\n  WINMEM_MAGIC1,\n#endif\n  NULL, FALSE\n};\n",
		"static struct winMemData win_mem_data = {\n··············\n················\n······\n  NULL, FALSE\n};\n"},
	{"a directive in the middle of a declaration (SQLite's columnNullValue)", "c",
		"  static const Mem nullMem\n#if defined(SQLITE_DEBUG)\n    __attribute__((aligned(8)))\n#endif\n    = { 0 };\n",
		"  static const Mem nullMem\n·························\n·······························\n······\n    = { 0 };\n"},
	{"a macro before the type (SQLite's SQLITE_PRIVATE)", "c",
		"SQLITE_PRIVATE sqlite3_int64 sqlite3BtreeMaxRecordSize(BtCursor*);\n",
		"static         sqlite3_int64 sqlite3BtreeMaxRecordSize(BtCursor*);\n"},
	{"two macros, one written as static", "c",
		"SQLITE_PRIVATE SQLITE_NOINLINE int sqlite3WalkExprNN(Walker *pWalker, Expr *pExpr){\n  return 0;\n}\n",
		"static         ··············· int sqlite3WalkExprNN(Walker *pWalker, Expr *pExpr){\n  return 0;\n}\n"},
	{"a macro after the storage class", "c",
		"static SQLITE_NO_TSAN void walIndexWriteHdr(Wal *pWal){}\n",
		"static ·············· void walIndexWriteHdr(Wal *pWal){}\n"},
	{"a macro before a union, in a function (SQLite's pthreadMutexAlloc)", "c",
		"void f(void){\n  static ALIGN128 union staticMutex {\n     int m;\n  } aMutex[] = { 0 };\n}\n",
		"void f(void){\n  static ········ union staticMutex {\n     int m;\n  } aMutex[] = { 0 };\n}\n"},
	{"a type name of capitals stays", "c",
		"FILE *sqlite3_fopen(const char*);\nstatic DWORD ok;\n",
		"FILE *sqlite3_fopen(const char*);\nstatic DWORD ok;\n"},
	{"a macro's call with a statement for its argument (SQLite's winRead)", "c",
		"int f(void){\n  SimulateIOError(return SQLITE_IOERR_READ);\n  MUTEX_LOGIC( sqlite3_mutex *pMem; )\n  return 0;\n}\n",
		"int f(void){\n  SimulateIOError(························);\n  ···································\n  return 0;\n}\n"},
	{"a macro between class and its name (googletest)", "cpp",
		"class GTEST_API_ UnitTest {\n public:\n  GTEST_API_ static UnitTest* GetInstance();\n};\n",
		"class ·········· UnitTest {\n public:\n  static     static UnitTest* GetInstance();\n};\n"},
	{"a macro between class and a specialization's name (googletest)", "cpp",
		"template <>\nclass GTEST_API_ Matcher<const std::string&>\n    : public internal::MatcherBase<const std::string&> {\n};\n",
		"template <>\nclass ·········· Matcher<const std::string&>\n    : public internal::MatcherBase<const std::string&> {\n};\n"},
	{"a macro's call in a type's place (googletest's gmock-matchers.h)", "cpp",
		"  typedef GTEST_REMOVE_REFERENCE_AND_CONST_(Container) RawContainer;\n",
		"  typedef int········································· RawContainer;\n"},
	{"a macro's call that declares, at namespace scope (googletest's gmock-actions.h)", "cpp",
		"namespace internal {\nGMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(void, );  // NOLINT\nGMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(::std::string, \"\");\n}\n",
		"namespace internal {\nGMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(······);  // NOLINT\nGMOCK_DEFINE_DEFAULT_ACTION_FOR_RETURN_TYPE_(·················);\n}\n"},
	{"macros after a function's parameters (googletest's gtest.h)", "cpp",
		"class UnitTest {\n  int Run() GTEST_MUST_USE_RESULT_;\n  const TestSuite* current_test_suite() const GTEST_LOCK_EXCLUDED_(mutex_);\n  internal::ParameterizedTestSuiteRegistry& parameterized_test_registry()\n      GTEST_LOCK_EXCLUDED_(mutex_);\n  std::string CurrentOsStackTraceExceptTop(int skip_count)\n      GTEST_NO_INLINE_ GTEST_NO_TAIL_CALL_;\n};\nint RUN_ALL_TESTS() GTEST_MUST_USE_RESULT_;\n",
		"class UnitTest {\n  int Run() ······················;\n  const TestSuite* current_test_suite() const ····························;\n  internal::ParameterizedTestSuiteRegistry& parameterized_test_registry()\n      ····························;\n  std::string CurrentOsStackTraceExceptTop(int skip_count)\n      ····································;\n};\nint RUN_ALL_TESTS() ······················;\n"},
	{"a macro after a function definition's parameters (googletest's gmock-spec-builders.cc)", "cpp",
		"void Mock::AllowLeak(const void* mock_obj)\n    GTEST_LOCK_EXCLUDED_(internal::g_gmock_mutex) {\n  x = 1;\n}\n",
		"void Mock::AllowLeak(const void* mock_obj)\n    ············································· {\n  x = 1;\n}\n"},
	{"macros' calls that declare, on lines of their own without \";\" (googletest's gtest.h)", "cpp",
		"GTEST_IMPL_CMP_HELPER_(NE, !=)\n// LE\nGTEST_IMPL_CMP_HELPER_(LE, <=)\nGTEST_IMPL_CMP_HELPER_(GT, >)\n\n#undef GTEST_IMPL_CMP_HELPER_\nGTEST_API_ AssertionResult CmpHelperSTREQ(const char* s1);\n",
		"······························\n// LE\n······························\n·····························\n\n#undef GTEST_IMPL_CMP_HELPER_\nstatic     AssertionResult CmpHelperSTREQ(const char* s1);\n"},
	{"hexadecimal escapes of one digit (googletest's googletest-printers-test.cc)", "cpp",
		"void f() {\n  memcpy(xy_, \"\\xEF\\x12\\x0\\x0\\x34\\xAB\\x0\\x0\", 8);\n  EXPECT_EQ(\"\\\"mm\\\\x6\\\" \\\"bananas\\\"\", Print(::std::string(\"mm\\x6\"\n                                                          \"bananas\")));\n  char c = '\\x5';\n}\n",
		"void f() {\n  memcpy(xy_, \"\\xEF\\x12\\00\\00\\x34\\xAB\\00\\00\", 8);\n  EXPECT_EQ(\"\\\"mm\\\\x6\\\" \\\"bananas\\\"\", Print(::std::string(\"mm\\06\"\n                                                          \"bananas\")));\n  char c = '\\05';\n}\n"},
	{"an attribute macro's call on lines of its own, right above its declaration (googletest's gtest.cc, gtest-internal.h, gtest-printers.h)", "cpp",
		"GTEST_ATTRIBUTE_PRINTF_(2, 3)\nstatic void ColoredPrintf(GTestColor color, const char* fmt, ...) {}\nGTEST_INTERNAL_DEPRECATED(\n    \"INSTANTIATE_TEST_CASE_P is deprecated\")\nconstexpr bool InstantiateTestCase_P_IsDeprecated() { return true; }\nGTEST_DISABLE_MSC_WARNINGS_PUSH_(4180)\n\n  // Note\n  static void Print(const T& value, ::std::ostream* os) {}\n",
		"static·······················\nstatic void ColoredPrintf(GTestColor color, const char* fmt, ...) {}\nstatic····················\n············································\nconstexpr bool InstantiateTestCase_P_IsDeprecated() { return true; }\n······································\n\n  // Note\n  static void Print(const T& value, ::std::ostream* os) {}\n"},
	{"a macro's call on a line of its own (googletest)", "cpp",
		"GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251)\nnamespace testing {\n#if GTEST_HAS_STD_WSTRING\nvoid f();\n#endif\n}\n",
		"······································\nnamespace testing {\n#if GTEST_HAS_STD_WSTRING\nvoid f();\n#endif\n}\n"},
	{"a macro's call that heads a definition (googletest's gmock-more-actions_test.cc)", "cpp",
		"namespace testing {\nACTION_TEMPLATE(ReturnSmartPointer,\n                HAS_1_TEMPLATE_PARAMS(template <typename Pointee> class,\n                                      Pointer),\n                AND_1_VALUE_PARAMS(pointee)) {\n  return Pointer<pointee_type>(new pointee_type(pointee));\n}\n}\n",
		"namespace·testing·{\nACTION_TEMPLATE(···················\n········································································\n···············································\n···········································)·{\n··return·Pointer<pointee_type>(new·pointee_type(pointee));\n}\n}\n"},
	{"groups whose first branch ends in the middle of a statement (SQLite's sqlite3GetToken)", "c",
		"int f(const unsigned char *z){\n  switch( *z ){\n    case CC_DOT: {\n#ifndef SQLITE_OMIT_FLOATING_POINT\n      if( !sqlite3Isdigit(z[1]) )\n#endif\n      {\n        return 1;\n      }\n    }\n    case CC_DIGIT: {\n#ifndef SQLITE_OMIT_HEX_INTEGER\n      if( z[0]=='0' ){\n        return 2;\n      }else\n#endif\n      {\n        return 3;\n      }\n    }\n  }\n  return 0;\n}\n",
		"int·f(const·unsigned·char·*z){\n··switch(·*z·){\n····case·CC_DOT:·{\n··································\n·································\n······\n······{\n········return·1;\n······}\n····}\n····case·CC_DIGIT:·{\n·······························\n······················\n·················\n···········\n······\n······{\n········return·3;\n······}\n····}\n··}\n··return·0;\n}\n"},
	{"a group with #else whose first branch ends in the middle of a statement (SQLite's statGet)", "c",
		"static void statGet(sqlite3_context *context, int argc, sqlite3_value **argv){\n  StatAccum *p = (StatAccum*)sqlite3_value_blob(argv[0]);\n#ifdef SQLITE_ENABLE_STAT4\n  int eCall = sqlite3_value_int(argv[1]);\n  if( eCall==STAT_GET_STAT1 )\n#else\n  assert( argc==1 );\n#endif\n  {\n    sqlite3_result_text(context, z, -1, sqlite3_free);\n  }\n}\n",
		"static·void·statGet(sqlite3_context·*context,·int·argc,·sqlite3_value·**argv){\n··StatAccum·*p·=·(StatAccum*)sqlite3_value_blob(argv[0]);\n··························\n··int·eCall·=·sqlite3_value_int(argv[1]);\n··if(·eCall==STAT_GET_STAT1·)\n·····\n····················\n······\n··{\n····sqlite3_result_text(context,·z,·-1,·sqlite3_free);\n··}\n}\n"},
}

// TestCParserInput checks each masking rule on its excerpt, and that
// ParserInput does not modify the text it is given.
func TestCParserInput(t *testing.T) {
	for _, c := range cMaskCases {
		l, err := lang.ByName(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte(c.src)
		got := string(l.ParserInput(src))
		if want := strings.ReplaceAll(c.want, "·", " "); got != want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, want)
		}
		if string(src) != c.src {
			t.Errorf("%s: ParserInput modified its input", c.name)
		}
	}
}

// TestCParserInputLayout checks that the text the C and C++ grammars
// read has the length of the file's and its newlines and CRs at the same
// offsets, and changes nothing but to blanks, "static" or "int" (or the
// x of a hexadecimal escape to 0), over the
// excerpts, every C and C++ fixture and SQLite's amalgamation when `make
// deps-clang` fetched it: every offset, line and column of the tree is
// the file's own.
func TestCParserInputLayout(t *testing.T) {
	type text struct{ name, lang, src string }
	var texts []text
	for _, c := range cMaskCases {
		texts = append(texts, text{c.name, c.lang, c.src})
		// With CRLF line ends too.
		texts = append(texts, text{c.name + " (CRLF)", c.lang, strings.ReplaceAll(c.src, "\n", "\r\n")})
	}
	for _, name := range []string{"c", "cpp"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "src", name, "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, text{f, name, string(b)})
		}
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if b, err := os.ReadFile(filepath.Join(dir, "github.com/mattn/go-sqlite3@v1.14.53/sqlite3-binding.c")); err == nil {
			texts = append(texts, text{"sqlite3-binding.c", "c", string(b)})
		}
	}
	for _, x := range texts {
		l, err := lang.ByName(x.lang)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte(x.src)
		in := l.ParserInput(src)
		if len(in) != len(src) {
			t.Errorf("%s: parser input of %d bytes, the file's %d", x.name, len(in), len(src))
			continue
		}
		for i := range src {
			a, b := src[i], in[i]
			if (a == '\n' || a == '\r' || b == '\n' || b == '\r') && a != b {
				t.Errorf("%s: byte %d is %q in the file, %q in the parser input", x.name, i, a, b)
				break
			}
			if a != b && b != ' ' && !inWritten(in, i) && !(a == 'x' && b == '0' && i > 0 && in[i-1] == '\\') {
				t.Errorf("%s: byte %d is %q in the file, %q in the parser input", x.name, i, a, b)
				break
			}
		}
	}
}

// inWritten reports whether in[i] is a byte of a "static" or an "int"
// in in, the keywords the masking writes.
func inWritten(in []byte, i int) bool {
	for k := max(0, i-5); k <= i; k++ {
		if bytes.HasPrefix(in[k:], []byte("static")) || k >= i-2 && bytes.HasPrefix(in[k:], []byte("int")) {
			return true
		}
	}
	return false
}
