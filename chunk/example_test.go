package chunk_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/symedit/symedit/chunk"
)

func ExampleApply() {
	// BaseProcess.start from CPython's multiprocessing/process.py, whose
	// last line is file line 132.
	target := chunk.Target{FirstLine: 126, Lines: []string{
		"        _cleanup()",
		"        self._popen = self._Popen(self)",
		"        self._sentinel = self._popen.sentinel",
		"        # Avoid a refcycle if the target function holds an indirect",
		"        # reference to the process object (see bpo-30775)",
		"        del self._target, self._args, self._kwargs",
		"        _children.add(self)",
	}}
	res, err := chunk.Apply(target, []chunk.Chunk{{
		ContextBefore: []string{"        del self._target, self._args, self._kwargs"},
		OldLines:      []string{},
		NewLines:      []string{"        util.debug('started process %s', self.name)"},
		ContextAfter:  []string{"        _children.add(self)"},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Join(res.Lines[4:], "\n"))
	fmt.Printf("%+v\n", res.Hunks)

	// A chunk whose context_after differs from the file is refused, with
	// the file line where it went wrong and the lines most like the one it
	// expected.
	_, err = chunk.Apply(target, []chunk.Chunk{{
		ContextBefore: []string{"        self._popen = self._Popen(self)"},
		NewLines:      []string{"        pass"},
		ContextAfter:  []string{"        self._sentinel = self._popen.sentinel", "        # the comment changed"},
	}})
	var e *chunk.Error
	if errors.As(err, &e) {
		fmt.Printf("%s: %s at line %d: %q\n", e.Code, e.Check, e.Line, e.Actual)
		fmt.Printf("nearest: line %d %q\n", e.Nearest[0].Line, e.Nearest[0].Text)
	}
	// Output:
	//         # reference to the process object (see bpo-30775)
	//         del self._target, self._args, self._kwargs
	//         util.debug('started process %s', self.name)
	//         _children.add(self)
	// [{Chunk:1 Line:132 Removed:0 Added:1 Level:exact Shift:+0 AlreadyApplied:false}]
	// NO_MATCH: check 1 (context_after) at line 129: "        # Avoid a refcycle if the target function holds an indirect"
	// nearest: line 130 "        # reference to the process object (see bpo-30775)"
}

func ExampleParse() {
	chunks, err := chunk.Parse([]byte(`{"chunks": [{
		"context_before": "    for item in batch:",
		"old_lines": ["        result = process(item)"],
		"new_lines": ["        result = process(item)", "        log(item, result)"],
		"context_after": "        count += 1"
	}]}`))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", chunks[0].NewLines)

	_, err = chunk.Parse([]byte(`[{"old_lines": "x = 1", "new_lines": []}]`))
	var ie *chunk.InputError
	if errors.As(err, &ie) {
		fmt.Println(ie.Chunk, ie.Key)
		fmt.Println(err)
	}
	// Output:
	// ["        result = process(item)" "        log(item, result)"]
	// 1 old_lines
	// invalid chunks: chunk 1: "old_lines": want an array of strings (one per line), got "x = 1"
}
