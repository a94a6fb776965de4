package ops

// SetUndoHook sets the function Undo runs after its checks and before
// its commit (nil: none), for the tests of its all-or-nothing commit.
func SetUndoHook(w *Workspace, f func()) { w.beforeUndoCommit = f }

// SetScanHook sets the function Replace runs before its first look at
// each walked file, with the file's path (nil: none), for the tests of a
// file that becomes unreadable after the walk listed it.
func SetScanHook(w *Workspace, f func(path string)) { w.beforeScan = f }
