package guard

// The syntax guard's tree edit: ts_tree_edit called with exact points.

/*
#include <stdint.h>

// The layouts of tree-sitter's TSPoint and TSInputEdit (api.h of
// github.com/smacker/go-tree-sitter, which compiles tree-sitter's C code
// into the program and so defines ts_tree_edit).
typedef struct { uint32_t row; uint32_t column; } symeditPoint;
typedef struct {
	uint32_t start_byte;
	uint32_t old_end_byte;
	uint32_t new_end_byte;
	symeditPoint start_point;
	symeditPoint old_end_point;
	symeditPoint new_end_point;
} symeditInputEdit;
struct TSTree;
void ts_tree_edit(struct TSTree *self, const symeditInputEdit *edit);
*/
import "C"

import (
	"reflect"
	"runtime"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// guardTreeEditor edits a tree to match a byte edit of its text, as
// ts_tree_edit does.
type guardTreeEditor func(tree *sitter.Tree, e sitter.EditInput)

// guardExactTreeEdit returns the editor that calls tree-sitter's
// ts_tree_edit with e as it is, or nil when the binding's tree does not
// have the layout it relies on.
//
// The binding's own Tree.Edit (EditInput.c in
// github.com/smacker/go-tree-sitter v0.0.0-20240827094217) passes
// OldEndPoint as the new end point, so after an edit that adds or removes
// lines, or changes the length of the edited line, every node after it
// keeps its old row and column. Python's scanner reads the column to find
// indentation, and the incremental re-parse then reports errors that a
// full parse of the same bytes does not (CPython's
// Signature/__str__ of Python 3.12 put into Python 3.13's inspect.py gives
// an ERROR node over a docstring). The binding does not expose the C tree,
// so this reads it from the first field of sitter.BaseTree, after checking
// by reflection that the field is the *C.TSTree it was in that version.
func guardExactTreeEdit() guardTreeEditor {
	t := reflect.TypeFor[sitter.BaseTree]()
	if t.NumField() == 0 {
		return nil
	}
	f := t.Field(0)
	if f.Name != "c" || f.Offset != 0 || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Name() != "_Ctype_struct_TSTree" {
		return nil
	}
	return guardTSTreeEdit
}

// guardTSTreeEdit calls ts_tree_edit on tree's C tree with e's bytes and
// points. tree must be open.
func guardTSTreeEdit(tree *sitter.Tree, e sitter.EditInput) {
	c := *(*unsafe.Pointer)(unsafe.Pointer(tree.BaseTree))
	in := C.symeditInputEdit{
		start_byte:    C.uint32_t(e.StartIndex),
		old_end_byte:  C.uint32_t(e.OldEndIndex),
		new_end_byte:  C.uint32_t(e.NewEndIndex),
		start_point:   C.symeditPoint{row: C.uint32_t(e.StartPoint.Row), column: C.uint32_t(e.StartPoint.Column)},
		old_end_point: C.symeditPoint{row: C.uint32_t(e.OldEndPoint.Row), column: C.uint32_t(e.OldEndPoint.Column)},
		new_end_point: C.symeditPoint{row: C.uint32_t(e.NewEndPoint.Row), column: C.uint32_t(e.NewEndPoint.Column)},
	}
	C.ts_tree_edit((*C.struct_TSTree)(c), &in)
	runtime.KeepAlive(tree)
}
