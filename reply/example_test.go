package reply_test

import (
	"fmt"

	"github.com/symedit/symedit/reply"
)

func ExampleParse() {
	res := reply.Parse(`I'll rename the field and drop the old file with ` + "`git rm src/old.py`" + `.

src/process.py
` + "```python" + `
<<<<<<< EDIT
        self._check_closed()
-------
        assert self._popen is None, 'cannot start a process twice'
=======
        if self._popen is not None:
            raise RuntimeError('cannot start a process twice')
-------
        assert self._parent_pid == os.getpid(), \
>>>>>>>
` + "```" + `

src/util.py
<<<<<<< SEARCH
x = 1
>>>>>>> REPLACE
`)
	for _, b := range res.Blocks {
		fmt.Printf("%s %s at reply line %d: %d leading, %d old, %d new, %d trailing\n",
			b.Format, b.Path, b.Line, len(b.ContextBefore), len(b.OldLines), len(b.NewLines), len(b.ContextAfter))
	}
	for _, m := range res.Malformed {
		fmt.Printf("malformed at reply line %d (%s): %s\n", m.Line, m.Path, m.Reason)
	}
	for _, s := range res.Shell {
		fmt.Printf("suggested at reply line %d: %s\n", s.Line, s.Command)
	}
	// Output:
	// edit src/process.py at reply line 5: 1 leading, 1 old, 2 new, 1 trailing
	// malformed at reply line 18 (src/util.py): missing =======: the block ends at line 20 before the ======= that separates SEARCH and REPLACE lines
	// suggested at reply line 1: git rm src/old.py
}

func ExampleBlock_Apply() {
	// The end of Go's sync/atomic/type.go, with CRLF line endings.
	text := "// Lock is a no-op used by -copylocks checker from `go vet`.\r\n" +
		"func (*noCopy) Lock()   {}\r\n" +
		"func (*noCopy) Unlock() {}\r\n"
	res := reply.Parse("src/go/atomic_type.go\n" +
		"<<<<<<< EDIT\n" +
		"func (*noCopy) Lock()   {}\n" +
		"-------\n" +
		"=======\n" +
		"\n" +
		"// Unlock is a no-op used by -copylocks checker from `go vet`.\n" +
		"-------\n" +
		"func (*noCopy) Unlock() {}\n" +
		">>>>>>>\n")
	b := res.Blocks[0]
	out, failure := b.Apply(text)
	if failure != nil {
		panic(failure)
	}
	fmt.Printf("%q\n", out)
	// Output:
	// "// Lock is a no-op used by -copylocks checker from `go vet`.\r\nfunc (*noCopy) Lock()   {}\r\n\r\n// Unlock is a no-op used by -copylocks checker from `go vet`.\r\nfunc (*noCopy) Unlock() {}\r\n"
}

func ExampleBlock_Apply_failure() {
	text := "type Bool struct {\n\t_ noCopy\n\tv uint32\n}\n\n" +
		"// Load atomically loads and returns the value stored in x.\n" +
		"func (x *Bool) Load() bool { return LoadUint32(&x.v) != 0 }\n"
	b := reply.Block{
		Format:        reply.FormatEdit,
		Path:          "src/go/atomic_type.go",
		ContextBefore: []string{"type Bool struct {", "\t_ noCopy"},
		OldLines:      []string{"\tv uint32 "}, // a trailing space the file does not have
		NewLines:      []string{"\tv uint32 // 0 or 1"},
		ContextAfter:  []string{"}"},
	}
	_, f := b.Apply(text)
	fmt.Println(f.Code, f.Line)
	fmt.Println(f.Message)
	fmt.Printf("nearest: line %d %q (similarity %.2f)\n", f.Nearest[0].Line, f.Nearest[0].Text, f.Nearest[0].Similarity)
	// Output:
	// OLD_MISMATCH 3
	// old lines do not match: the leading anchor matches at lines 1-2, but line 3 is "\tv uint32" where line 1 of the old lines is "\tv uint32 " (they differ only in white space or invisible characters: the sent line ends with 1 space the file's line does not have; the file indents with tabs; lines must match exactly)
	// nearest: line 3 "\tv uint32" (similarity 0.99)
}

func ExampleBlock_Preview() {
	b := reply.Block{
		Format:        reply.FormatEdit,
		ContextBefore: []string{"    def start(self):"},
		OldLines:      []string{"        '''", "        Start child process"},
		NewLines:      []string{"", "        '''Start the child process, which runs the target in a new OS process.'''"},
		ContextAfter:  []string{"        self._check_closed()"},
	}
	fmt.Printf("%+v\n", b.Preview())
	// Output:
	// {Anchor:def start(self): Old:''' New:'''Start the child process, which runs the target...}
}

func ExampleBlock_String() {
	b := reply.Block{Format: reply.FormatSearchReplace, Path: "src/a.py", OldLines: []string{"x = 1"}, NewLines: []string{"x = 2"}}
	fmt.Print(b.String())
	// Output:
	// src/a.py
	// <<<<<<< SEARCH
	// x = 1
	// =======
	// x = 2
	// >>>>>>> REPLACE
}
