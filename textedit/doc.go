// Package textedit is symedit's text edit engine, beside chunk and reply:
// pure functions from a text and a request to byte edits, with no I/O.
// It holds exact text edits with occurrence counts ([TextEdit],
// [ApplyTextEdits]: symedit edit), literal and regular-expression search
// and replace over many files ([Search], [Searcher]: symedit replace),
// and whole-symbol replacement and insertion ([ReplaceSymbol],
// [InsertBeforeSymbol], [InsertAfterSymbol]: symedit replace-body,
// insert-before, insert-after), which keep the decorators, annotations
// and doc comments a model did not send.
package textedit
