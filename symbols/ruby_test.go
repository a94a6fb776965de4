package symbols_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/symedit/symedit/lang"
)

// This file checks symedit's Ruby symbols against Ruby's own parser:
// testdata/parsers/rubydefs.rb prints every module, class, def and
// def recv.x with RubyVM::AbstractSyntaxTree's range and Ripper's name
// position, and the test compares kind, name path, start, end and name
// position of each with symedit's.

// rubyCache is where `make test-ruby` extracts Debian's ruby3.1 and
// libruby3.1 packages (relative to this package's directory).
const rubyCache = "../.cache/ruby/root"

// rubyTool returns the command that runs Ruby 3.1 with its library: the
// one `make test-ruby` extracts under .cache/ruby, else ruby on PATH; it
// skips the test when neither is there.
func rubyTool(t *testing.T) *exec.Cmd {
	t.Helper()
	root, err := filepath.Abs(rubyCache)
	if err != nil {
		t.Fatal(err)
	}
	if bin := filepath.Join(root, "usr", "bin", "ruby3.1"); fileExists(bin) {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(),
			"LD_LIBRARY_PATH="+filepath.Join(root, "usr", "lib", "x86_64-linux-gnu"),
			"RUBYLIB="+filepath.Join(root, "usr", "lib", "ruby", "3.1.0")+":"+filepath.Join(root, "usr", "lib", "x86_64-linux-gnu", "ruby", "3.1.0"))
		return cmd
	}
	if p, err := exec.LookPath("ruby"); err == nil {
		return exec.Command(p)
	}
	t.Skip("ruby not found: `make test-ruby` extracts Debian's ruby3.1 into .cache/ruby")
	return nil
}

// rubyDefs runs rubydefs.rb over files and returns its output.
func rubyDefs(t *testing.T, files []string) []byte {
	t.Helper()
	cmd := rubyTool(t)
	cmd.Args = append(append(cmd.Args, filepath.Join("testdata", "parsers", "rubydefs.rb")), files...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rubydefs.rb: %v\n%s", err, stderr.String())
	}
	return out
}

// TestRubyMatchesRuby compares the Ruby fixtures under testdata/src/ruby
// with Ruby's own parser: every definition is found, every position equal.
func TestRubyMatchesRuby(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoTestdata, "src", "ruby", "*.rb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Ruby fixtures (%v)", err)
	}
	rb := mustLang(t, "ruby")
	out := rubyDefs(t, files)
	res := compareOwnDefs(t, rb, out)
	if res.refused > 0 {
		t.Errorf("Ruby refused %d of the fixtures", res.refused)
	}
	res.report(t, "ruby fixtures", 1)
	checkRubyKeywords(t, rb, out)
}

// rubyLibrary returns every step-th .rb file of Ruby's library (lib/ruby
// of Debian's libruby3.1: the standard library and its bundled gems,
// extracted by `make test-ruby`),
// skipping the test when it is absent.
func rubyLibrary(t *testing.T, step int) []string {
	t.Helper()
	dir := filepath.Join(rubyCache, "usr", "lib", "ruby")
	if !fileExists(dir) {
		t.Skip("Ruby's standard library not found: `make test-ruby` extracts Debian's libruby3.1 into .cache/ruby")
	}
	var all []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	var files []string
	for i := 0; i < len(all); i += step {
		files = append(files, all[i])
	}
	return files
}

// TestRubyMatchesRubyWholeTree compares every definition of Ruby 3.1's
// library as Debian's libruby3.1 ships it (lib/ruby: the standard library
// and its bundled gems, 1,249 files) with Ruby's own parser: at least 99.5%
// found, every position of those found equal; and the guard's
// ruby/keywords check finds no problem in a file Ruby accepts. `make
// test-ruby` and `make test-parsers` run it.
func TestRubyMatchesRubyWholeTree(t *testing.T) {
	longTrees(t)
	rb := mustLang(t, "ruby")
	out := rubyDefs(t, rubyLibrary(t, 1))
	compareOwnDefs(t, rb, out).report(t, "ruby standard library", 0.995)
	checkRubyKeywords(t, rb, out)
}

// checkRubyKeywords runs the Ruby checker over every file that
// rubydefs.rb's output, out, says Ruby accepts: it must find nothing.
func checkRubyKeywords(t *testing.T, rb *lang.Language, out []byte) {
	t.Helper()
	n := 0
	for _, f := range parseOwnDefs(t, out) {
		if f.Status != "ok" {
			continue
		}
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, p := range rb.Checker().Check(rb.ParserInput(src)) {
			t.Errorf("%s: byte %d: %s: Ruby accepts the file", f.Path, p.Start, p.Message)
		}
	}
	t.Logf("the ruby/keywords check over %d files Ruby accepts", n)
}

// TestRubyMatchesRubySample is TestRubyMatchesRubyWholeTree over every
// 25th file of the standard library; -short skips it.
func TestRubyMatchesRubySample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ruby over a sample of its standard library")
	}
	rb := mustLang(t, "ruby")
	out := rubyDefs(t, rubyLibrary(t, 25))
	compareOwnDefs(t, rb, out).report(t, "ruby standard library sample", 0.995)
	checkRubyKeywords(t, rb, out)
}

// mustLang returns the built-in language called name.
func mustLang(t *testing.T, name string) *lang.Language {
	t.Helper()
	l, err := lang.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
