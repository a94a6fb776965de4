package edit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/grammars"
)

func TestFindSyntaxProblems(t *testing.T) {
	goLang, _ := grammars.ByName("go")
	pyLang, _ := grammars.ByName("python")
	tests := []struct {
		name    string
		lang    *grammars.Language
		src     string
		want    []string // "LINE:COL KIND" of each problem
		checked bool
	}{
		{"go ok", goLang, "package p\n\nfunc f() {}\n", nil, true},
		{"go broken", goLang, "package p\n\nfunc f() {\n\tx := )\n}\n", []string{"4:2 ERROR", "4:7 go/parser", "6:1 go/parser"}, true},
		{"go top-level statement", goLang, "package p\n\nx := 1\n", []string{"3:1 go/parser"}, true},
		{"python ok", pyLang, "def f():\n    return 1\n", nil, true},
		{"python no body", pyLang, "def f():\nx = 1\n", []string{"2:1 python/indent"}, true},
		{"bom", goLang, "\ufeffpackage p\nfunc f( {}\n", nil, true},
		{"unsupported", nil, "whatever", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := edit.FindSyntaxProblems(context.Background(), tt.lang, []byte(tt.src), edit.GuardOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Checked != tt.checked {
				t.Fatalf("Checked = %v (skipped %q), want %v", rep.Checked, rep.Skipped, tt.checked)
			}
			if tt.name == "bom" {
				if len(rep.New) == 0 || rep.New[0].Line != 2 {
					t.Fatalf("bom: got %v, want problems on line 2", rep.New)
				}
				return
			}
			var got []string
			for _, p := range rep.New {
				got = append(got, fmt.Sprintf("%d:%d %s", p.Line, p.Column, p.Kind))
				if p.Kind == edit.KindError && p.Text == "" {
					t.Errorf("problem %v has no line text", p)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("problems = %v, want %v (%v)", got, tt.want, rep.New)
			}
			if rep.After != len(rep.New) || rep.Before != 0 {
				t.Errorf("Before, After = %d, %d", rep.Before, rep.After)
			}
		})
	}
}

func TestFindSyntaxProblemsSkips(t *testing.T) {
	goLang, _ := grammars.ByName("go")
	rep, err := edit.FindSyntaxProblems(context.Background(), goLang, []byte("package p\n"), edit.GuardOptions{Mode: edit.CheckOff})
	if err != nil || rep.Checked || rep.Skipped != "check off" {
		t.Errorf("check off: %+v, %v", rep, err)
	}
	rep, err = edit.FindSyntaxProblems(context.Background(), goLang, []byte("package p\n// long\n"), edit.GuardOptions{MaxSize: 5})
	if err != nil || rep.Checked || !strings.HasPrefix(rep.Skipped, "too large") {
		t.Errorf("too large: %+v, %v", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err = edit.FindSyntaxProblems(ctx, goLang, []byte("package p\n"), edit.GuardOptions{Timeout: time.Second})
	if err != nil || rep.Checked || !strings.HasPrefix(rep.Skipped, "canceled") {
		t.Errorf("canceled: %+v, %v", rep, err)
	}
}
