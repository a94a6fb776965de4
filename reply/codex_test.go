package reply_test

import (
	"strings"
	"testing"

	"github.com/symedit/symedit/match"
	"github.com/symedit/symedit/reply"
)

// applyPatchTo parses a reply holding one apply_patch patch for path and
// applies its blocks to text. It fails the test when the reply does not
// parse into well-formed blocks for path alone.
func applyPatchTo(t *testing.T, replyText, path, text string) (string, *reply.Failure) {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Malformed) > 0 || len(res.Blocks) == 0 {
		t.Fatalf("parsed %d blocks, malformed %+v\n%s", len(res.Blocks), res.Malformed, replyText)
	}
	for _, b := range res.Blocks {
		if b.Path != path || b.Format != reply.FormatApplyPatch {
			t.Fatalf("block for %q, format %s; want %q", b.Path, b.Format, path)
		}
	}
	out, _, _, f := reply.ApplyAll(res.Blocks, text, match.Exact)
	return out, f
}

// malformedOnly parses replyText and fails the test unless it holds no
// well-formed block and exactly one malformed one whose reason holds each
// of want; it returns that Malformed.
func malformedOnly(t *testing.T, replyText string, want ...string) reply.Malformed {
	t.Helper()
	res := reply.Parse(replyText)
	if len(res.Blocks) != 0 || len(res.Malformed) != 1 {
		t.Fatalf("want one malformed block and no other, got %+v\n%s", res, replyText)
	}
	for _, w := range want {
		if !strings.Contains(res.Malformed[0].Reason, w) {
			t.Errorf("reason %q lacks %q", res.Malformed[0].Reason, w)
		}
	}
	return res.Malformed[0]
}

// TestPatchPaddedMarkers reads apply_patch markers padded with spaces or
// tabs as the markers, as Codex does: its scenarios
// 017_whitespace_padded_hunk_header ("  *** Update File:"),
// 018_whitespace_padded_patch_markers (" *** Begin Patch", "*** End Patch
// ") and 020_whitespace_padded_patch_marker_lines ("*** Begin Patch ",
// " *** End Patch" after a hunk line) in openai/codex's apply-patch tests,
// and padded file and move lines between files. Inside a hunk a line that
// starts with a space is a context line, so a padded marker there is
// refused unless it is the "*** End Patch" that no line of the patch
// follows (the patch's last line, which Codex reads as its end).
func TestPatchPaddedMarkers(t *testing.T) {
	for _, c := range []struct{ name, reply, text, want string }{
		{"codex 017", "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n", "old\n", "new\n"},
		{"codex 018", " *** Begin Patch\n*** Update File: foo.txt\n@@\n-one\n+two\n*** End Patch \n", "one\n", "two\n"},
		{"codex 020", "*** Begin Patch \n*** Update File: foo.txt\n@@\n-one\n+two\n *** End Patch\n", "one\n", "two\n"},
		{"codex 020 in a heredoc", "apply_patch <<'EOF'\n*** Begin Patch \n*** Update File: foo.txt\n@@\n-one\n+two\n  *** End Patch\nEOF\n", "one\n", "two\n"},
		{"codex 020 in a fence, blank line before", "```\n*** Begin Patch\n*** Update File: foo.txt\n@@\n-one\n+two\n\n\t*** End Patch\n```\n", "one\n", "two\n"},
		{"padded move and end of file", "*** Begin Patch\n*** Update File: foo.txt\n   *** Move to: foo.txt\n@@\n-one\n+two\n\t*** End of File\n *** End Patch\n", "one\n", "two\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := reply.Parse(c.reply)
			if len(res.Malformed) != 0 || len(res.Blocks) != 1 || res.Blocks[0].Path != "foo.txt" {
				t.Fatalf("got %+v", res)
			}
			if strings.Contains(c.reply, "Move to") {
				return // the move is ops' job; parsed is enough
			}
			out, f := applyPatchTo(t, c.reply, "foo.txt", c.text)
			if f != nil || out != c.want {
				t.Fatalf("got %q, %v; want %q", out, f, c.want)
			}
		})
	}

	// Padded file lines after an added file and a deleted one.
	res := reply.Parse("*** Begin Patch\n*** Add File: a.txt\n+x\n  *** Delete File: b.txt\n\t*** Update File: c.txt\n@@\n-1\n+2\n*** End Patch\n")
	if len(res.Malformed) != 0 || len(res.Blocks) != 3 || res.Blocks[1].Path != "b.txt" || !res.Blocks[1].Delete || res.Blocks[2].Path != "c.txt" {
		t.Fatalf("got %+v", res)
	}

	// Inside a hunk: a padded file line, or a padded "*** End Patch" that
	// more of the patch follows, may be a context line holding the text.
	for _, c := range []struct{ reply, line string }{
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n  *** Update File: b.txt\n@@\n-one\n+two\n*** End Patch\n", "line 6"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n *** End Patch\n+two\n*** End Patch\n", "line 5"},
		{"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n *** End of File\n*** End Patch\n", "line 6"},
	} {
		m := malformedOnly(t, c.reply, "padded with spaces or a context line holding a marker's text", c.line)
		if m.Path != "a.txt" {
			t.Errorf("malformed path %q, want a.txt", m.Path)
		}
	}
}
