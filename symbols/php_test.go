package symbols_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// This file checks symedit's PHP symbols against PHP's own grammar:
// testdata/parsers/phpdefs.php prints every namespace, class, interface,
// trait, enum, function and method with PHP-Parser's range (its grammar is
// PHP's zend_language_parser.y) and the name's position, checked against
// PHP's tokenizer, and the test compares kind, name path, start, end and
// name position of each with symedit's.

// phpCache is where `make test-php` extracts Debian's php8.2-cli,
// php8.2-common (the tokenizer extension) and php-parser packages, and the
// PHP packages whose sources are the real tree (relative to this
// package's directory).
const phpCache = "../.cache/php"

// phpTool returns the command that runs PHP 8.2 with the tokenizer
// extension and the path of PHP-Parser's autoload.php, from what `make
// test-php` extracts under .cache/php; it skips the test when they are
// absent.
func phpTool(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join(phpCache, "root"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "usr", "bin", "php8.2")
	autoload := filepath.Join(root, "usr", "share", "php", "PhpParser", "autoload.php")
	if !fileExists(bin) || !fileExists(autoload) {
		t.Skip("php not found: `make test-php` extracts Debian's php8.2-cli and php-parser into .cache/php")
	}
	ext, err := filepath.Glob(filepath.Join(root, "usr", "lib", "php", "*", "tokenizer.so"))
	if err != nil || len(ext) == 0 {
		t.Skip("PHP's tokenizer extension not found under .cache/php: `make test-php` extracts php8.2-common")
	}
	cmd := exec.Command(bin, "-n", "-d", "memory_limit=-1", "-d", "extension_dir="+filepath.Dir(ext[0]), "-d", "extension=tokenizer")
	return cmd, autoload
}

// phpDefs runs phpdefs.php over files and returns its output.
func phpDefs(t *testing.T, files []string) []byte {
	t.Helper()
	cmd, autoload := phpTool(t)
	cmd.Args = append(append(cmd.Args, filepath.Join("testdata", "parsers", "phpdefs.php"), autoload), files...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("phpdefs.php: %v\n%s", err, stderr.String())
	}
	return out
}

// TestPHPMatchesPHPParser compares the PHP fixtures under testdata/src/php
// with PHP-Parser: every definition is found, every position equal.
func TestPHPMatchesPHPParser(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoTestdata, "src", "php", "*.php"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PHP fixtures (%v)", err)
	}
	res := compareOwnDefs(t, mustLang(t, "php"), phpDefs(t, files))
	if res.refused > 0 {
		t.Errorf("PHP-Parser refused %d of the fixtures", res.refused)
	}
	res.report(t, "php fixtures", 1)
}

// phpTree returns every step-th .php file of the PHP sources `make
// test-php` extracts (PHP-Parser itself and the Debian PHP packages under
// .cache/php/corpus: Symfony, Guzzle, Doctrine, Illuminate components),
// skipping the test when they are absent.
func phpTree(t *testing.T, step int) []string {
	t.Helper()
	var all []string
	for _, dir := range []string{filepath.Join(phpCache, "root", "usr", "share", "php"), filepath.Join(phpCache, "corpus", "usr", "share", "php")} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".php") {
				all = append(all, p)
			}
			return nil
		})
	}
	if len(all) == 0 {
		t.Skip("no PHP sources under .cache/php: `make test-php` extracts them")
	}
	sort.Strings(all)
	var files []string
	for i := 0; i < len(all); i += step {
		files = append(files, all[i])
	}
	return files
}

// TestPHPMatchesPHPParserWholeTree compares every definition of the PHP
// sources `make test-php` extracts with PHP-Parser: at least 99.5% found,
// every position of those found equal. `make test-php` and `make
// test-parsers` run it.
func TestPHPMatchesPHPParserWholeTree(t *testing.T) {
	longTrees(t)
	compareOwnDefs(t, mustLang(t, "php"), phpDefs(t, phpTree(t, 1))).report(t, "php tree", 0.995)
}

// TestPHPMatchesPHPParserSample is TestPHPMatchesPHPParserWholeTree over
// every 25th file; -short skips it.
func TestPHPMatchesPHPParserSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PHP-Parser over a sample of real PHP code")
	}
	compareOwnDefs(t, mustLang(t, "php"), phpDefs(t, phpTree(t, 25))).report(t, "php tree sample", 0.995)
}
