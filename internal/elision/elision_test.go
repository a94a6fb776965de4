package elision

import "testing"

// TestLine: the placeholders the peers document their models writing, in
// each language's comment syntax, are placeholders; code and comments
// that say something are not.
func TestLine(t *testing.T) {
	placeholders := []string{
		// Bare dots (Aider's and Python's shape) and dots in comments.
		"...", "    ...", "…", "// ...", "# ...", "/* ... */", "<!-- ... -->", "{/* ... */}", "\t// …",
		// Cursor's edit tool.
		"// ... existing code ...", "    # ... existing code ...", "{/* ... existing code ... */}", "... existing code ...",
		"/* ... existing code ... */", "<!-- ... existing code ... -->",
		// Claude Code and Cline reports.
		"// ... rest of the code", "// rest of code here", "# rest of the function unchanged",
		"    # ... rest of the function unchanged ...", "// ... rest of the code remains the same",
		"# Rest of the code remains the same...", "// The rest of the code remains the same",
		"# ... (the rest of the code remains the same)", "// ... (rest of the code remains the same)",
		"{/* ... (other form fields remain unchanged) ... */}", "# old code remains the same",
		"// ... [rest of the file content remains unchanged]", "# rest of the file unchanged",
		"# rest of the method remains the same", "// rest of the class unchanged", "// ... other methods ...",
		"// Existing code here...", "    # Your existing code here", "{/* Keep the existing code here */}",
		"// ... remaining code unchanged", "// ... existing imports", "/* rest of implementation */",
		"[rest of the file unchanged]", "# ... unchanged ...", "// code omitted for brevity",
	}
	for _, l := range placeholders {
		if _, ok := Line(l); !ok {
			t.Errorf("%q is not read as a placeholder", l)
		}
	}
	code := []string{
		"", "    ", "#", "//", "}", "pass", "return nil", "x = a + 2", "fmt.Println(\"...\")",
		"// rest of the function handles the error case", "# the existing code path is slow here, see #123",
		"args = (...)", "def f(x): ...", "rest of code", "existing code", "/* a comment",
		"// TODO: rest of the code should move to parse.go", "# keep the rest of the list sorted",
		"x = y[...]", "print('...')", "-->", "# ---",
	}
	for _, l := range code {
		if shape, ok := Line(l); ok {
			t.Errorf("%q is read as a placeholder (%s)", l, shape)
		}
	}
}

// TestFind: a placeholder counts only where it replaces old lines and is
// not one of them.
func TestFind(t *testing.T) {
	old := []string{"    x = a + 1", "    y = b * 2", "    return x + y"}
	e, ok := Find(old, []string{"    x = a + 2", "    # ... rest of the function unchanged ..."})
	if !ok || e.Index != 1 || e.Text != "    # ... rest of the function unchanged ..." {
		t.Errorf("lazy body: %+v %v", e, ok)
	}
	// The file's own "...": a Protocol's stub body kept.
	if e, ok := Find([]string{"    def close(self) -> None:", "        ..."}, []string{"    def close(self) -> None:", "        ...", "    def flush(self) -> None:", "        ..."}); ok {
		t.Errorf("stub body: %+v", e)
	}
	// Aider's elision: "..." lines on both sides.
	if e, ok := Find([]string{"a = 1", "...", "c = 3"}, []string{"a = 2", "...", "c = 4"}); ok {
		t.Errorf("Aider's elision: %+v", e)
	}
	// An insertion drops nothing: a placeholder comment it adds is the
	// author's to write.
	if e, ok := Find([]string{"x = 1"}, []string{"x = 1", "# ..."}); ok {
		t.Errorf("insertion: %+v", e)
	}
	if e, ok := Find(nil, []string{"// ... existing code ..."}); ok {
		t.Errorf("no old lines: %+v", e)
	}
}
