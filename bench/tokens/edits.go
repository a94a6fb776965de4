package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
)

// An edit kind turns a function's lines into edited lines, or reports that
// the function offers no place for it.
type editKind struct {
	name  string
	apply func(f *function, r *rand.Rand) ([]string, bool)
}

var editKinds = []editKind{
	{"condition", editCondition},
	{"log line", editLogLine},
	{"parameter", editParameter},
	{"wrap block", editWrap},
	{"delete stmt", editDelete},
	{"scattered x4", editScattered},
}

// function is one real function: its file, language and whole lines.
type function struct {
	path  string
	name  string
	lang  string // "go" or "python"
	first int    // 1-based file line of lines[0]
	lines []string
}

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func (f *function) unit() string { // one level of indentation
	if f.lang == "go" {
		return "\t"
	}
	return "    "
}

// opens reports whether line s opens a block (its body follows, indented).
func (f *function) opens(s string) bool {
	t := strings.TrimSpace(s)
	if f.lang == "go" {
		return strings.HasSuffix(t, "{") || strings.HasSuffix(t, "(")
	}
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "(") || strings.HasSuffix(t, "[")
}

// simple reports whether line i of the body is a plain one-line statement.
func (f *function) simple(i int) bool {
	s := f.lines[i]
	t := strings.TrimSpace(s)
	if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || f.opens(s) {
		return false
	}
	if f.lang == "go" {
		if strings.HasPrefix(t, "}") || strings.HasPrefix(t, "case ") || t == "default:" || strings.HasSuffix(t, ",") || strings.HasSuffix(t, ")") && !strings.Contains(t, "(") {
			return false
		}
	} else if strings.HasSuffix(t, ",") || strings.HasSuffix(t, "\\") || strings.HasPrefix(t, ")") || strings.HasPrefix(t, "]") || strings.HasPrefix(t, "}") || strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''") {
		return false
	}
	// The previous line must not continue onto this one.
	if i > 0 {
		p := strings.TrimSpace(f.lines[i-1])
		if strings.HasSuffix(p, ",") || strings.HasSuffix(p, "(") || strings.HasSuffix(p, "\\") || strings.HasSuffix(p, "+") || strings.HasSuffix(p, "&&") || strings.HasSuffix(p, "||") {
			return false
		}
	}
	return indentOf(s) != indentOf(f.lines[0])
}

// pick returns a random index among those of the body (not the first or
// last line) that ok accepts.
func pick(f *function, r *rand.Rand, ok func(i int) bool) (int, bool) {
	var idx []int
	for i := 1; i < len(f.lines)-1; i++ {
		if ok(i) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return 0, false
	}
	return idx[r.IntN(len(idx))], true
}

var goIf = regexp.MustCompile(`^(\s*(?:\} else )?if )(.*) \{$`)
var pyIf = regexp.MustCompile(`^(\s*(?:el)?if )(.*):$`)

// editCondition changes an if statement's condition.
func editCondition(f *function, r *rand.Rand) ([]string, bool) {
	re := pyIf
	if f.lang == "go" {
		re = goIf
	}
	i, ok := pick(f, r, func(i int) bool { return re.MatchString(f.lines[i]) })
	if !ok {
		return nil, false
	}
	m := re.FindStringSubmatch(f.lines[i])
	out := slices.Clone(f.lines)
	if f.lang == "go" {
		out[i] = m[1] + "(" + m[2] + ") && !disabled {"
	} else {
		out[i] = m[1] + "(" + m[2] + ") and not disabled:"
	}
	return out, true
}

// editLogLine inserts a log line after a statement.
func editLogLine(f *function, r *rand.Rand) ([]string, bool) {
	i, ok := pick(f, r, f.simple)
	if !ok {
		return nil, false
	}
	line := indentOf(f.lines[i]) + `logger.debug("%s: step %d", __name__, ` + fmt.Sprint(i) + ")"
	if f.lang == "go" {
		line = indentOf(f.lines[i]) + `log.Printf("` + f.name + `: step %d", ` + fmt.Sprint(i) + ")"
	}
	return slices.Insert(slices.Clone(f.lines), i+1, line), true
}

// editParameter adds a parameter to the signature.
func editParameter(f *function, r *rand.Rand) ([]string, bool) {
	out := slices.Clone(f.lines)
	if f.lang == "go" {
		// The parameter list follows the name: "Name(" or "Name[T any](".
		for i, s := range out {
			k := strings.Index(s, " "+f.name+"(")
			if k < 0 {
				continue
			}
			k += len(f.name) + 2
			if strings.HasPrefix(s[k:], ")") {
				out[i] = s[:k] + "ctx context.Context" + s[k:]
			} else {
				out[i] = s[:k] + "ctx context.Context, " + s[k:]
			}
			return out, true
		}
		return nil, false
	}
	// Python: before the ")" that closes the def's parameter list.
	for i, s := range out {
		if !strings.Contains(s, "def "+f.name+"(") {
			continue
		}
		for j := i; j < len(out) && j < i+15; j++ {
			t := strings.TrimRight(out[j], " \t")
			if !strings.HasSuffix(t, ":") {
				continue
			}
			k := strings.LastIndex(t, ")")
			if k < 0 {
				return nil, false
			}
			before := strings.TrimRight(t[:k], " \t")
			sep := ", "
			if strings.HasSuffix(before, "(") {
				sep = ""
			} else if strings.HasSuffix(before, ",") {
				sep = " "
			}
			out[j] = before + sep + "timeout=None" + t[k:]
			return out, true
		}
		return nil, false
	}
	return nil, false
}

// editWrap wraps a run of one to four simple statements at the same
// indentation in a conditional block.
func editWrap(f *function, r *rand.Rand) ([]string, bool) {
	i, ok := pick(f, r, f.simple)
	if !ok {
		return nil, false
	}
	ind := indentOf(f.lines[i])
	j := i + 1
	for j < len(f.lines)-1 && j < i+1+r.IntN(4) && f.simple(j) && indentOf(f.lines[j]) == ind {
		j++
	}
	var block []string
	if f.lang == "go" {
		block = append(block, ind+"if !dryRun {")
	} else {
		block = append(block, ind+"if not dry_run:")
	}
	for _, s := range f.lines[i:j] {
		block = append(block, f.unit()+s)
	}
	if f.lang == "go" {
		block = append(block, ind+"}")
	}
	out := slices.Concat(f.lines[:i], block, f.lines[j:])
	return out, true
}

// editDelete deletes one simple statement.
func editDelete(f *function, r *rand.Rand) ([]string, bool) {
	i, ok := pick(f, r, f.simple)
	if !ok {
		return nil, false
	}
	return slices.Delete(slices.Clone(f.lines), i, i+1), true
}

// editScattered makes four edits spread over a function of 150 lines or
// more: one in each quarter, each a condition change, a log line or a
// deletion, applied from the last quarter up so indices stay valid.
func editScattered(f *function, r *rand.Rand) ([]string, bool) {
	n := len(f.lines)
	if n < 150 {
		return nil, false
	}
	out := slices.Clone(f.lines)
	made := 0
	for q := 3; q >= 0; q-- {
		lo, hi := 1+q*(n-2)/4, 1+(q+1)*(n-2)/4
		part := &function{path: f.path, name: f.name, lang: f.lang, lines: out}
		var cand []int
		for i := lo; i < hi && i < len(out)-1; i++ {
			if part.simple(i) {
				cand = append(cand, i)
			}
		}
		if len(cand) == 0 {
			continue
		}
		i := cand[r.IntN(len(cand))]
		switch r.IntN(3) {
		case 0:
			re := pyIf
			if f.lang == "go" {
				re = goIf
			}
			done := false
			for k := i; k < hi && k < len(out)-1; k++ {
				if m := re.FindStringSubmatch(out[k]); m != nil {
					if f.lang == "go" {
						out[k] = m[1] + "(" + m[2] + ") && !disabled {"
					} else {
						out[k] = m[1] + "(" + m[2] + ") and not disabled:"
					}
					done = true
					break
				}
			}
			if !done {
				out = slices.Delete(out, i, i+1)
			}
		case 1:
			line := indentOf(out[i]) + `logger.debug("step %d", ` + fmt.Sprint(i) + ")"
			if f.lang == "go" {
				line = indentOf(out[i]) + `log.Printf("step %d", ` + fmt.Sprint(i) + ")"
			}
			out = slices.Insert(out, i+1, line)
		default:
			out = slices.Delete(out, i, i+1)
		}
		made++
	}
	return out, made >= 3
}
