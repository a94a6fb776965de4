// Package elision tells a lazy edit's placeholder lines from code: the
// lines models write in an edit's new text where they mean "the code here
// stays as it was" ("// ... existing code ...", "# rest of the function
// unchanged", a bare "..."), which a tool that writes the new text as it
// is turns into the loss of that code. The table below is the one list of
// those shapes; Find applies it to an edit's old and new lines.
//
// The shapes come from what the peers document their models emitting:
// Cursor's edit tool asks for "// ... existing code ..." around each
// change (and "{/* ... existing code ... */}" in JSX); Aider's prompts
// forbid eliding a file's content with "..." or comments like
// "... rest of code ...", and its SEARCH/REPLACE blocks use "..." lines
// on both sides (an elision of its own, which Find leaves alone, since
// the old lines have it too); the Claude Code and Cline reports of code
// lost to edits quote "// ... rest of the code", "// rest of code here",
// "# old code remains the same", "{/* ... (other form fields remain
// unchanged) ... */}" and "// ... [rest of the file content remains
// unchanged]".
package elision

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// comment is one comment syntax of the supported languages: a line comment
// (Open alone) or a comment closed on the same line (Open and Close).
type comment struct{ open, close string }

// comments are the comment syntaxes a placeholder line is written in:
// Python's #, the // of Go, Java, TypeScript and JavaScript, /* */, JSX's
// {/* */} and HTML's or Markdown's <!-- -->. Longer openers come first.
var comments = []comment{
	{"{/*", "*/}"},
	{"<!--", "-->"},
	{"/*", "*/"},
	{"//", ""},
	{"#", ""},
}

// Shape is one row of the table: a name for tests and messages, and the
// pattern the placeholder's words (the comment's text, lower case, with
// the dots, brackets and quotes around it taken off) match in full.
type Shape struct {
	// Name says which shape of placeholder the row is.
	Name string
	// Pattern matches the words of the line as a whole.
	Pattern *regexp.Regexp
}

// filler is what may follow a placeholder's words: "here", "for
// brevity", "as before", "remains the same", "unchanged" and the like.
const filler = `(?: (?:is |are |remains? |stays? |kept |left |goes |go |omitted |skipped |elided |as |is kept |remain |)` +
	`(?:here|there|unchanged|the same|same|as before|as is|as it was|intact|omitted|skipped|elided|for brevity|for now|not shown|from before|above|below|\(unchanged\)))*`

// code names what a placeholder stands for: code, the file, a function,
// its body, the fields of a form...
const code = `(?:code|file|file content|contents?|function|functions|method|methods|class|classes|component|components|body|module|logic|implementation|lines|imports|fields|form fields|properties|props|tests|cases|definitions|content|code base|codebase|script|program|handlers|routes|styles|config|configuration|markup|jsx|html|template)`

// Shapes returns the table of placeholder shapes, each matched against
// the words of a line (see Line). The table is compiled on first use, not
// when the program starts: most runs never look for a placeholder, and
// compiling these expressions was a measurable part of every run's start.
func Shapes() []Shape { return slices.Clone(shapes()) }

// shapes is the compiled table, built once.
var shapes = sync.OnceValue(func() []Shape {
	return []Shape{
		// "...", "// ...", "# ...", "/* ... */", "<!-- ... -->": nothing but
		// dots, handled by Line before the table (no words are left).
		{"rest of the code", regexp.MustCompile(`^(?:and |keep |keeping |the |your |all |)?(?:the )?(?:rest|remainder|remaining part) of (?:the |this |your |my )?(?:existing |original |old |current |unchanged )?` + code + `(?: \w+)?` + filler + `$`)},
		{"existing code", regexp.MustCompile(`^(?:keep |keeping |keep the |place |place your |insert |insert your |your |the |all |)?(?:the |your )?(?:existing|previous|original|old|other|remaining|unchanged|same|current) ` + code + filler + `$`)},
		{"code unchanged", regexp.MustCompile(`^` + code + ` (?:is |remains? |stays? )?(?:unchanged|the same|as before|omitted|skipped|elided|not shown|for brevity|here)` + filler + `$`)},
		{"unchanged code", regexp.MustCompile(`^(?:unchanged|omitted|skipped|elided) ` + code + filler + `$`)},
		{"same as before", regexp.MustCompile(`^(?:same as before|as before|unchanged|no changes?|nothing changed|omitted for brevity|for brevity)$`)},
	}
})

// surround is what Line takes off both ends of a placeholder's words.
const surround = " \t.…[](){}\"'`*:;,-"

// Line reports whether l, a line of an edit's new text, is a placeholder
// rather than code: a line that is nothing but "..." (or "…"), or a
// comment in one of the comment syntaxes whose whole text is "..." or
// words that a row of Shapes matches ("... existing code ...", "rest of
// the function unchanged"), or such words between dots or brackets with
// no comment ("... existing code ...", "[rest of the file unchanged]").
// Its Shape's name is returned with it ("dots" for dots alone).
func Line(l string) (string, bool) {
	t := strings.TrimSpace(l)
	if t == "" {
		return "", false
	}
	marked := false // a comment, dots or brackets say the words are not code
	for _, c := range comments {
		if !strings.HasPrefix(t, c.open) {
			continue
		}
		body := t[len(c.open):]
		if c.close != "" {
			if !strings.HasSuffix(body, c.close) {
				return "", false // a comment that goes on to another line
			}
			body = body[:len(body)-len(c.close)]
		}
		t, marked = body, true
		break
	}
	t = strings.ReplaceAll(t, "…", "...")
	dots := strings.Contains(t, "...")
	words := strings.TrimFunc(t, func(r rune) bool { return strings.ContainsRune(surround, r) })
	if words == "" {
		if dots {
			return "dots", true
		}
		return "", false
	}
	if !marked && !dots && !strings.ContainsAny(t[:1], "[(") {
		return "", false // bare words: code or prose, not a placeholder
	}
	words = strings.Join(strings.Fields(strings.ToLower(words)), " ")
	for _, s := range shapes() {
		if s.Pattern.MatchString(words) {
			return s.Name, true
		}
	}
	return "", false
}

// Elided is a placeholder line Find found in an edit's new text.
type Elided struct {
	// Index is the 0-based index of the line in the new lines.
	Index int
	// Text is the line as sent.
	Text string
	// Shape is the name of the Shapes row it matched ("dots" for dots
	// alone).
	Shape string
}

// Find returns the first placeholder line (Line) of new that elides code
// of old: old has a line that is not blank and that new does not keep
// (so new replaces something), and the placeholder is not a line old
// already has (a file's own "...", the "..." body of a Python stub or
// Protocol, Aider's "..." lines on both sides of a SEARCH/REPLACE block;
// lines compared with surrounding white space trimmed). ok is false when
// there is none.
func Find(old, new []string) (Elided, bool) {
	had := map[string]bool{}
	for _, l := range old {
		had[strings.TrimSpace(l)] = true
	}
	kept := map[string]bool{}
	for _, l := range new {
		kept[strings.TrimSpace(l)] = true
	}
	drops := false
	for _, l := range old {
		if t := strings.TrimSpace(l); t != "" && !kept[t] {
			drops = true
			break
		}
	}
	if !drops {
		return Elided{}, false
	}
	for i, l := range new {
		if had[strings.TrimSpace(l)] {
			continue
		}
		if shape, ok := Line(l); ok {
			return Elided{Index: i, Text: l, Shape: shape}, true
		}
	}
	return Elided{}, false
}
