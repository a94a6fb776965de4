package textedit_test

import (
	"errors"
	"fmt"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/textedit"
)

func ExampleApplyTextEdits() {
	text := "const a = 1;\nconst b = 2;\n"
	edits, err := textedit.ParseTextEdits([]byte(`[
		{"old_text": "const", "new_text": "let", "occurrences": 2},
		{"old_text": "let a", "new_text": "let x"},
		{"old_text": "= 1", "new_text": "= 100"}
	]`))
	if err != nil {
		panic(err)
	}
	res, err := textedit.ApplyTextEdits(text, edit.LF, edits)
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Text)
	for _, s := range res.Edits {
		fmt.Printf("edit %d replaced %d at lines %v\n", s.Edit, s.OccurrencesReplaced, s.Lines)
	}
	fmt.Println("total:", res.TotalReplacements)
	// Output:
	// let x = 100;
	// let b = 2;
	// edit 1 replaced 2 at lines [1 2]
	// edit 2 replaced 1 at lines [1]
	// edit 3 replaced 1 at lines [1]
	// total: 4
}

// A CRLF file edited with LF text matches and stays CRLF.
func ExampleApplyTextEdits_crlf() {
	text := "line1\r\nline2\r\nline3"
	res, err := textedit.ApplyTextEdits(text, edit.CRLF, []textedit.TextEdit{
		{OldText: "line1\nline2", NewText: "one\ntwo"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", res.Text)
	// Output:
	// "one\r\ntwo\r\nline3"
}

func ExampleTextEditError() {
	text := "func main() {\n\tconst  limit = 10\n\tfmt.Println(limit)\n}\n"
	_, err := textedit.ApplyTextEdits(text, edit.LF, []textedit.TextEdit{
		{OldText: "const limit = 10", NewText: "const limit = 20"},
	})
	fmt.Println(err)
	var te *textedit.TextEditError
	if errors.As(err, &te) {
		fmt.Println()
		fmt.Println(te.Type, errors.Is(err, textedit.ErrTextNoMatch), te.Similar[0].LineNumber, te.Similar[0].Differences[0].Type)
	}
	// Output:
	// edit 1 of 1 failed: old_text was not found in the text.
	//
	// Searched for (between the >>> and <<< markers):
	// >>>const limit = 10<<<
	//
	// The text has similar content (original line numbers):
	//
	// Line 2 (similarity 0.97): 	const  limit = 10
	//   Difference (whitespace): white space differs: old_text has "const limit", the file has "const  limit"
	//
	// Suggestions:
	// 1. Read the file again and copy old_text exactly as it is, character for character: matching is literal and case-sensitive, with no regular expressions.
	//    Example: "old_text": "const  limit = 10" (line 2, similarity 0.97)
	// 2. Check white space: line 2 differs from old_text only in white space. The file indents with tabs.
	//    Example: "old_text": "const  limit = 10" (line 2)
	//
	// NO_MATCH true 2 whitespace
}

func ExampleParseTextEdits() {
	_, err := textedit.ParseTextEdits([]byte(`[{"old_text": "a", "new_text": "b", "occurrences": 0}]`))
	fmt.Println(err)
	_, err = textedit.ParseTextEdits([]byte(`{"edits": [{"old_string": "a", "new_text": "b"}]}`))
	fmt.Println(err)
	// Output:
	// invalid edits: edit 1: "occurrences": want a positive integer (1 or more; 1 when absent), got 0
	// invalid edits: edit 1: "old_string": unknown key: an edit has only old_text, new_text and occurrences; did you mean "old_text"?
}
