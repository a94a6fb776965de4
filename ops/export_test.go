package ops

// SetUndoHook sets the function Undo runs after its checks and before
// its commit (nil: none), for the tests of its all-or-nothing commit.
func SetUndoHook(w *Workspace, f func()) { w.beforeUndoCommit = f }
