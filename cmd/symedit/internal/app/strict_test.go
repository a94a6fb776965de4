package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symedit/symedit/guard"
	"github.com/symedit/symedit/remedy"
)

// TestStrictRefusesUnchecked checks that --check=strict never writes
// content the syntax guard could not check: a Python
// file over the guard's size limit is refused with the reason and the
// flags that proceed, exit 1, JSON code NOT_CHECKED, and left
// byte-identical; --check=warn writes it with a note; --check=off writes
// it silently. A file under the limit is checked as before.
func TestStrictRefusesUnchecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.py")
	// Valid Python a little over the limit: a real module's worth of
	// lines, repeated.
	unit := []byte("def f(a, b):\n    return a + b\n\n\nx = f(1, 2)\n")
	big := bytes.Repeat(unit, guard.GuardMaxSize/len(unit)+1)
	if len(big) <= guard.GuardMaxSize {
		t.Fatal("the file is not over the limit")
	}
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(append([]string{"symedit", "lines", "--root", dir}, args...), strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	unchanged := func(what string) {
		t.Helper()
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, big) {
			t.Errorf("%s: the file changed (%d bytes, %v)", what, len(got), err)
		}
	}
	big = append([]byte("import os\n"), big...)
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	toSys, toOS := filepath.Join(dir, "sys.json"), filepath.Join(dir, "os.json")
	for f, line := range map[string]string{toSys: "import sys", toOS: "import os"} {
		if err := os.WriteFile(f, []byte(`[{"start_line": 1, "end_line": 1, "new_content": "`+line+`"}]`), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, mode := range []string{"", "--check=strict"} {
		args := []string{path, toSys}
		if mode != "" {
			args = append([]string{mode}, args...)
		}
		code, _, stderr := run(args...)
		if code != ExitRejected || !strings.Contains(stderr, "syntax not checked: too large: ") ||
			!strings.Contains(stderr, "nothing was written") || !strings.HasSuffix(stderr, "rerun with --check warn\n") {
			t.Errorf("strict %q: exit %d, stderr %q", mode, code, stderr)
		}
		unchanged("strict " + mode)
	}
	code, stdout, _ := run("--json", path, toSys)
	var res struct {
		OK    bool `json:"ok"`
		Error struct {
			Code   string           `json:"code"`
			Remedy []remedy.Setting `json:"remedy"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != ExitRejected || res.OK || res.Error.Code != "NOT_CHECKED" ||
		!slices.Equal(res.Error.Remedy, []remedy.Setting{{Option: remedy.Check, Value: "warn"}}) {
		t.Errorf("--json: exit %d, %q (%v)", code, stdout, err)
	}
	unchanged("--json")

	code, _, stderr := run("--check=warn", path, toSys)
	got, _ := os.ReadFile(path)
	if code != ExitOK || !strings.Contains(stderr, "note: "+path+": syntax not checked: too large: ") || !bytes.HasPrefix(got, []byte("import sys\ndef f")) {
		t.Errorf("warn: exit %d, stderr %q, file starts %.20q", code, stderr, got)
	}
	code, _, stderr = run("--check=off", path, toOS)
	got, _ = os.ReadFile(path)
	if code != ExitOK || strings.Contains(stderr, "not checked") || !bytes.Equal(got, big) {
		t.Errorf("off: exit %d, stderr %q, file restored %v", code, stderr, bytes.Equal(got, big))
	}

	// Under the limit the guard checks, and a clean edit is written.
	small := filepath.Join(dir, "small.py")
	if err := os.WriteFile(small, []byte("import os\n"+string(unit)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"symedit", "lines", "--root", dir, small, toSys}, strings.NewReader(""), &out, &errb); code != ExitOK {
		t.Errorf("small file: exit %d, %s", code, errb.String())
	}
}
