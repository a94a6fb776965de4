// Package match finds a sequence of lines (the needle) in another (the
// haystack) at an explicit level of tolerance, and never guesses: it is
// the one line-sequence matcher behind symedit's chunk, edit and apply
// commands, so that the three accept the same lines.
//
// # Levels
//
// From strict to loose:
//
//   - Exact: the lines are equal byte for byte. Lines never carry line
//     endings; callers split text with one rule (CRLF, LF or CR), so a CRLF
//     file matches LF-split lines at every level.
//   - Trailing: equal after trimming trailing white space.
//   - Indent: equal after trimming trailing white space and the
//     indentation, with one constant indentation shift over every
//     non-blank matched line (a blank needle line matches a blank line and
//     does not constrain the shift). The model's block may be shifted left
//     or right by a fixed amount, or use tabs where the file uses the same
//     depth of spaces (or the reverse).
//   - Loose: as Indent, and the rest of each line is compared after
//     folding runs of inner white space to one space and mapping
//     typographic quotes, dashes and non-breaking spaces to their ASCII
//     forms. This is for comparison only: callers write the new lines as
//     sent, shifted as under Indent.
//
// Content differences are never tolerated: there is no edit distance and no
// similarity threshold.
//
// # Tabs and indentation widths
//
// Indentation is measured in columns: a space is one column and a tab is
// one indent unit of TabWidth columns. TabWidth is detected, by the rule of
// function TabWidth, from whichever side indents with spaces: the haystack
// if any of its lines is indented with spaces only, else the needle, else
// 4. A side's unit is the most frequent step of indentation by 2, 3, 4 or
// 8 columns between consecutive non-blank space-indented lines (ties to the
// smaller step, 4 when there is none; continuation lines aligned at other
// columns do not count). So a needle indented with tabs matches a
// file indented with four spaces per level "at the same depth", and the
// reverse.
//
// # Search
//
// Search tries the levels in order up to an allowed one and stops at the
// first level with any match: one match is the answer, several are an
// ambiguity at that level, and a looser level is never used to break a tie
// at a stricter one. Hint says, when the allowed levels find nothing,
// whether a looser level would find exactly one match, and which flag
// would accept it. ShiftIndent shifts new lines by a match's Shift, writing
// indentation in the haystack's style (tabs or spaces).
//
// The package is pure: lines in, lines out, no I/O.
package match
