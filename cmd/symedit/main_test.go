package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/symedit/symedit/cmd/symedit/internal/app"
	"github.com/symedit/symedit/internal/goroot"
)

var update = flag.Bool("update", false, "rewrite the files that scripts compare with cmp")

// TestMain lets the test binary run as the symedit command inside scripts,
// as cmd/shfmt's tests do.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"symedit": func() { os.Exit(app.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. Each starts
// with the repository's fixtures copied to $WORK/src; $GOSRC is Go's source
// tree and $PYLIB the CPython standard library, when present.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("../../testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			e.Setenv("GOSRC", goroot.Src())
			// The journal and the index go to a folder of the script's
			// own, never to the user's cache.
			e.Setenv("SYMEDIT_CACHE_DIR", filepath.Join(e.WorkDir, ".cache"))
			return os.CopyFS(filepath.Join(e.WorkDir, "src"), os.DirFS(fixtures))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
		},
		RequireExplicitExec: true,
		UpdateScripts:       *update,
	})
}

// cmdExits runs "exits CODE PROGRAM ARGS..." and fails unless PROGRAM exits
// with exactly CODE; its output becomes stdout and stderr as with exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}
