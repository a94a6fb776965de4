package walk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"golang.org/x/sys/unix"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/lang"
)

// Reasons for skipping a file, the keys of Result.Skipped.
const (
	SkipUnsupported = "unsupported language"
	SkipSymlink     = "symbolic link"
	SkipBinary      = "binary"
	SkipTooLarge    = "too large"
)

// binarySniffLen is how many leading bytes are searched for a NUL, as
// files.Read does.
const binarySniffLen = 8000

// Errors of Expand.
var (
	// ErrBadPattern is a malformed doublestar pattern (an argument or an
	// Options.Exclude pattern).
	ErrBadPattern = errors.New("bad pattern")
	// ErrNoMatch is a pattern that matches no file.
	ErrNoMatch = errors.New("pattern matches no file")
)

// Options tunes Expand. The zero value walks with every rule in force.
type Options struct {
	// Exclude holds doublestar patterns of files and folders to leave out
	// of a walk, matched against the path below the walked folder and
	// against the base name.
	Exclude []string
	// NoIgnore does not read .gitignore files and .git/info/exclude.
	NoIgnore bool
	// Hidden walks hidden files and folders too (never .git).
	Hidden bool
	// Confine, when not nil, confines walks: it is asked about every
	// folder argument and every pattern's walked folder before it is
	// read, and its error (the file layer's refusal of a folder outside
	// its root: files.Files.ConfineDir) stops the walk.
	Confine func(dir string) error
	// MaxSize is the largest file a walk keeps, in bytes; zero or less
	// means edit.MaxFileSize.
	MaxSize int64
	// DeferContentChecks leaves the checks that open a walked file (too
	// large, binary) to the caller: the walk keeps every walked file in a
	// supported language without opening it, and marks it in
	// Result.Unchecked, for the caller to run Check on it when it has to
	// (a caller whose symbol index holds the file unchanged knows it
	// passed them, and opens nothing). Skipped then counts only the
	// reasons the walk decided.
	DeferContentChecks bool

	// serial reads a walk's folders one at a time, on the calling
	// goroutine: the walk the concurrent one must equal, for tests.
	serial bool
	// started, when not nil, counts the goroutines the walks start to
	// read folders, for tests to know that the concurrent walk ran.
	started *atomic.Int64
}

// Result is what Expand found.
type Result struct {
	// Files are the files to work on: sorted and distinct when Walked,
	// else the arguments as given.
	Files []string
	// Walked reports that at least one argument was a folder or a pattern.
	Walked bool
	// Skipped counts the files a walk left out, by reason (SkipBinary,
	// SkipTooLarge, SkipUnsupported, SkipSymlink); ignored, hidden and
	// excluded files are not counted.
	Skipped map[string]int
	// Unchecked, with Options.DeferContentChecks, holds one flag per
	// file of Files: true for a walked file whose content checks (Check)
	// were left to the caller; nil without that option.
	Unchecked []bool
}

// Sniff returns why a walk skips a file of size bytes whose first bytes
// are head (at least its first 8,000 bytes, or all of it): SkipTooLarge
// over maxSize bytes (zero or less: edit.MaxFileSize), SkipBinary for a
// NUL byte in its first 8,000 bytes; "" to keep it. It is Check for a
// caller that reads the file itself (Options.DeferContentChecks), so that
// the file is opened once.
func Sniff(head []byte, size, maxSize int64) string {
	if maxSize <= 0 {
		maxSize = edit.MaxFileSize
	}
	if size > maxSize {
		return SkipTooLarge
	}
	if bytes.IndexByte(head[:min(len(head), binarySniffLen)], 0) >= 0 {
		return SkipBinary
	}
	return ""
}

// Summary returns "N file(s)" followed, when files were skipped, by
// "; skipped: COUNT REASON, ..." in the order of the reasons' names.
func (r Result) Summary() string {
	s := fmt.Sprintf("%d file(s)", len(r.Files))
	if len(r.Skipped) == 0 {
		return s
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r.Skipped)) {
		parts = append(parts, fmt.Sprintf("%d %s", r.Skipped[k], k))
	}
	return s + "; skipped: " + strings.Join(parts, ", ")
}

// IsPattern reports whether arg contains a glob metacharacter.
func IsPattern(arg string) bool { return strings.ContainsAny(arg, "*?[{") }

// Expand expands args as the package documentation says. Its errors are
// a malformed pattern (ErrBadPattern), a pattern that matches nothing
// (ErrNoMatch), Options.Confine's refusal of a walked folder, and
// failures to read a folder.
func Expand(args []string, opt Options) (Result, error) {
	for _, x := range opt.Exclude {
		if !doublestar.ValidatePattern(x) {
			return Result{}, fmt.Errorf("--exclude %q: %w", x, ErrBadPattern)
		}
	}
	if opt.MaxSize <= 0 {
		opt.MaxSize = edit.MaxFileSize
	}
	w := &walker{opt: opt, skipped: map[string]int{}}
	var explicit []string
	for _, a := range args {
		info, err := os.Stat(a)
		switch {
		case err == nil && info.IsDir():
			w.walked = true
			n := len(w.files)
			if err := w.walkBase(a, ""); err != nil {
				return Result{}, err
			}
			w.settle(n)
		case err == nil || !IsPattern(a):
			explicit = append(explicit, a)
			w.files = append(w.files, found{path: a}) // keyed only if needed
		default:
			w.walked = true
			n := len(w.files)
			if err := w.pattern(a); err != nil {
				return Result{}, err
			}
			w.settle(n)
			if len(w.files) == n {
				return Result{}, fmt.Errorf("%s: %w", a, ErrNoMatch)
			}
		}
	}
	if !w.walked {
		r := Result{Files: explicit, Skipped: w.skipped}
		if opt.DeferContentChecks {
			r.Unchecked = make([]bool, len(explicit))
		}
		return r, nil
	}
	// A file reached twice (two arguments, or two names of one folder) is
	// kept once, under the name it was first reached by; names are
	// compared by their real folder, never by cleaning their text, which
	// would take "sub/.." for "." when sub is a link.
	seen := make(map[string]bool, len(w.files))
	kept := make([]found, 0, len(w.files))
	for _, f := range w.files {
		if f.key == "" {
			f.key = fileKey(f.path)
		}
		if !seen[f.key] {
			seen[f.key] = true
			kept = append(kept, f)
		}
	}
	slices.SortFunc(kept, func(a, b found) int { return strings.Compare(a.path, b.path) })
	r := Result{Files: make([]string, len(kept)), Walked: true, Skipped: w.skipped}
	if opt.DeferContentChecks {
		r.Unchecked = make([]bool, len(kept))
	}
	for i, f := range kept {
		r.Files[i] = f.path
		if r.Unchecked != nil {
			r.Unchecked[i] = f.unchecked
		}
	}
	return r, nil
}

// walker is one Expand call's state.
type walker struct {
	opt     Options
	files   []found
	skipped map[string]int
	walked  bool
}

// found is a file for the result: its name, and the key that tells two
// names of one file apart from two files.
type found struct {
	path string
	// key is the real path of its folder, "/", its base name; "" for a
	// file named on the command line until the files are deduplicated:
	// when no argument is walked, no key is needed, so a command on named
	// files alone resolves no folder's real path.
	key string
	// walked marks a walked file, in a supported language, whose content
	// checks (binary, too large) are still to run: settle runs them,
	// concurrently, or leaves them to the caller.
	walked bool
	// unchecked marks a walked file whose content checks were deferred
	// (Options.DeferContentChecks).
	unchecked bool
}

// fileKey returns the key of a file named on the command line: its
// folder's real path and its base name, so that a link named on the
// command line stays apart from its target; the path itself when its
// folder cannot be resolved (the command reports it).
func fileKey(path string) string {
	dir, name := splitName(path)
	if real, err := realPath(dir); err == nil {
		return real + "/" + name
	}
	return path
}

// splitName splits path at its last separator into the folder and the
// base name, without cleaning either: "x.py" is in ".".
func splitName(path string) (dir, name string) {
	i := strings.LastIndexByte(path, '/')
	switch {
	case i < 0:
		return ".", path
	case i == 0:
		return "/", path[1:]
	}
	return path[:i], path[i+1:]
}

// realPath returns the real absolute path of the existing path p: made
// absolute from the working directory without cleaning it first, then
// every symbolic link and ".." resolved as the kernel does
// (filepath.EvalSymlinks), so that "sub/.." is sub's real parent when sub
// is a link, not "." as cleaning the text would make it.
func realPath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + "/" + p
	}
	return filepath.EvalSymlinks(p)
}

// tidy drops the empty and "." components of path, which never change
// what it names, and keeps every "..", which after a link does: "./src/"
// becomes "src", "a//./b/../c" becomes "a/b/../c".
func tidy(path string) string {
	var keep []string
	for _, c := range strings.Split(path, "/") {
		if c != "" && c != "." {
			keep = append(keep, c)
		}
	}
	out := strings.Join(keep, "/")
	switch {
	case strings.HasPrefix(path, "/"):
		return "/" + out
	case out == "":
		return "."
	}
	return out
}

// child returns the name of the entry name of the folder dir, joined
// without cleaning (filepath.Join would take "sub/../x.py" for "x.py").
func child(dir, name string) string {
	switch dir {
	case ".":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

// pattern expands a doublestar pattern.
func (w *walker) pattern(p string) error {
	slash := filepath.ToSlash(p)
	if !doublestar.ValidatePattern(slash) {
		return fmt.Errorf("%s: %w", p, ErrBadPattern)
	}
	base, rest := doublestar.SplitPattern(slash)
	if info, err := os.Stat(filepath.FromSlash(base)); err != nil || !info.IsDir() {
		return fmt.Errorf("%s: %w", p, ErrNoMatch)
	}
	return w.walkBase(filepath.FromSlash(base), rest)
}

// walkBase walks the folder base, keeping the files whose slash path below
// base matches rest ("" keeps every file).
func (w *walker) walkBase(base, rest string) error {
	base = tidy(base)
	real, err := realPath(base)
	if err != nil {
		return err
	}
	if w.opt.Confine != nil {
		if err := w.opt.Confine(base); err != nil {
			return err
		}
	}
	var ps []gitignore.Pattern
	var domain []string
	if !w.opt.NoIgnore {
		if ps, domain, err = ancestorPatterns(real); err != nil {
			return err
		}
	}
	var segs []string
	if rest != "" && !braceHasSlash(rest) {
		segs = strings.Split(rest, "/")
	}
	d := &dirWalk{walker: w, base: base, real: real, rest: rest, segs: segs}
	return d.dir(base, "", domain, ps)
}

// dirWalk is the walk of one folder argument or pattern.
type dirWalk struct {
	*walker
	base string   // the folder as named, tidied
	real string   // its real absolute path
	rest string   // the pattern below base, or ""
	segs []string // rest's segments, for pruning; nil: no pruning
}

// folder is a folder to walk and, once read, what reading it found.
type folder struct {
	path   string              // its name: the walked folder's name joined with rel
	rel    string              // its slash path below the walked folder; "" for that folder
	domain []string            // its components below the work tree's top
	ps     []gitignore.Pattern // the ignore patterns in force above it
	// at is how many of its parent's files come before it in name
	// order: the walk's output is the parent's files[:at], then this
	// folder's, then the parent's next subfolder or files.
	at int

	read        bool     // whether the fields below are set
	err         error    // why it could not be read (then nothing else is set)
	files       []found  // its files to keep, in name order
	subs        []folder // its subfolders to walk, in name order
	symlinks    int      // its links the walk counts as skipped
	unsupported int      // its files in no supported language, skipped
}

// dir walks the folder at path, rel below base ("" for base), whose
// components below the work tree's top are domain, under the ignore
// patterns ps: it appends the files it keeps to d.files in depth-first
// name order, and returns the first error in that order (a folder or an
// ignore file that cannot be read). Unless Options.serial, every folder
// is read first, on up to runtime.GOMAXPROCS(0) goroutines (readTree),
// and emit then only puts the results in order; serially, emit reads each
// folder when it gets there. The files, the counts and the error are the
// same either way.
func (d *dirWalk) dir(path, rel string, domain []string, ps []gitignore.Pattern) error {
	f := &folder{path: path, rel: rel, domain: domain, ps: ps}
	if !d.opt.serial {
		d.readTree(f)
	}
	return d.emit(f)
}

// emit appends the files of the folder f and of its subfolders to
// d.files, in depth-first name order, reading each folder not read yet
// when it gets there, and returns the first error in that order: a
// serial walk stops at it, having read nothing after it.
func (d *dirWalk) emit(f *folder) error {
	if !f.read {
		d.read(f)
	}
	if f.err != nil {
		return f.err
	}
	if f.symlinks > 0 {
		d.skipped[SkipSymlink] += f.symlinks
	}
	if f.unsupported > 0 {
		d.skipped[SkipUnsupported] += f.unsupported
	}
	done := 0
	for i := range f.subs {
		s := &f.subs[i]
		d.files = append(d.files, f.files[done:s.at]...)
		done = s.at
		if err := d.emit(s); err != nil {
			return err
		}
	}
	d.files = append(d.files, f.files[done:]...)
	*f = folder{read: true} // done: let its files and patterns go
	return nil
}

// readTree reads the folder f and every folder below it that the walk
// enters, on up to runtime.GOMAXPROCS(0) goroutines, the caller's
// included, and returns when all are read. The caller reads the first
// serialFolders folders alone; then, if folders are left, it and
// GOMAXPROCS-1 goroutines take them from one stack of folders to read,
// pushing the subfolders each finds, until none is left and none is
// being read. Every folder is read, even after an error, which emit then
// picks in depth-first order: which read fails first in time must not
// decide the error.
func (d *dirWalk) readTree(f *folder) {
	q := &readQueue{todo: []*folder{f}}
	for range serialFolders {
		if len(q.todo) == 0 {
			return
		}
		f := q.todo[len(q.todo)-1]
		q.todo = q.todo[:len(q.todo)-1]
		d.read(f)
		q.todo = pushSubs(q.todo, f)
	}
	if len(q.todo) == 0 {
		return
	}
	q.more.L = &q.mu
	q.workers = runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range q.workers - 1 {
		if d.opt.started != nil {
			d.opt.started.Add(1)
		}
		wg.Go(func() { d.work(q) })
	}
	d.work(q)
	wg.Wait()
}

// serialFolders is how many folders a walk reads before it starts a
// goroutine: a small tree is read sooner on one, as the walk's
// benchmark on the repository's testdata (14 folders) shows, where
// waking a second thread costs more than it saves.
const serialFolders = 32

// readQueue is the folders a concurrent walk has yet to read.
type readQueue struct {
	mu      sync.Mutex
	more    sync.Cond // signalled when todo grows or the walk is done
	todo    []*folder // folders to read, the last first
	reading int       // folders being read
	workers int       // goroutines reading them, the caller's included
}

// work reads folders from q, adding their subfolders, until q holds none
// and none is being read, which may add more. A worker that finds none
// waits until another adds some or finishes the walk.
func (d *dirWalk) work(q *readQueue) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.todo) == 0 && q.reading > 0 {
			q.more.Wait()
		}
		if len(q.todo) == 0 {
			q.more.Broadcast() // done: let the others return too
			return
		}
		f := q.todo[len(q.todo)-1]
		q.todo = q.todo[:len(q.todo)-1]
		q.reading++
		q.mu.Unlock()
		d.read(f)
		q.mu.Lock()
		q.reading--
		q.todo = pushSubs(q.todo, f)
		for range min(len(f.subs), q.workers-1) { // as many as have work
			q.more.Signal()
		}
	}
}

// pushSubs pushes the subfolders of the folder f, read, on todo, the
// last first, so that they are popped in name order.
func pushSubs(todo []*folder, f *folder) []*folder {
	for i := len(f.subs) - 1; i >= 0; i-- {
		todo = append(todo, &f.subs[i]) // f.subs is complete: the pointer stays valid
	}
	return todo
}

// read lists the folder f and sets what it found. It reads only f's own
// fields and the walk's options, and writes only f, so folders may be
// read concurrently; the ignore patterns and domains it hands to the
// subfolders are new slices, never appended to in place.
func (d *dirWalk) read(f *folder) {
	f.read = true
	entries, err := os.ReadDir(f.path)
	if err != nil {
		f.err = err
		return
	}
	ps := f.ps
	if !d.opt.NoIgnore {
		own, err := readIgnoreFile(child(f.path, ".gitignore"), f.domain)
		if err != nil {
			f.err = err
			return
		}
		if len(own) > 0 {
			ps = append(slices.Clip(ps), own...)
		}
	}
	var m gitignore.Matcher
	var at []string // f.domain and an entry's name, for m: one slice for all
	if len(ps) > 0 {
		m = gitignore.NewMatcher(ps)
		at = append(slices.Clip(f.domain), "")
	}
	// One allocation each for the files and the subfolders, as many as
	// the folder could give: growing them would copy and allocate more.
	var nFiles, nDirs int
	for _, e := range entries {
		switch {
		case e.IsDir():
			nDirs++
		case e.Type().IsRegular():
			nFiles++
		}
	}
	f.files = make([]found, 0, nFiles)
	f.subs = make([]folder, 0, nDirs)
	for _, e := range entries { // os.ReadDir sorts by name
		name := e.Name()
		if name == ".git" || (!d.opt.Hidden && strings.HasPrefix(name, ".")) {
			continue
		}
		childRel := name
		if f.rel != "" {
			childRel = f.rel + "/" + name
		}
		isDir := e.IsDir()
		if m != nil {
			at[len(at)-1] = name // the matcher keeps no path it is given
			if m.Match(at, isDir) {
				continue
			}
		}
		if d.excluded(childRel, name) {
			continue
		}
		switch {
		case isDir:
			if !d.mayContain(childRel) {
				continue
			}
			f.subs = append(f.subs, folder{
				path: child(f.path, name), rel: childRel, ps: ps, at: len(f.files),
				domain: append(slices.Clip(f.domain), name),
			})
		case e.Type()&fs.ModeSymlink != 0:
			if d.matches(childRel) {
				f.symlinks++
			}
		case e.Type().IsRegular():
			if !d.matches(childRel) {
				continue
			}
			// Decided here, by the base name, before the file's names
			// are made, and on the folder's goroutine.
			if l, err := lang.ForPath(name); err != nil || l == nil {
				f.unsupported++
				continue
			}
			f.files = append(f.files, found{path: child(f.path, name), key: d.real + "/" + childRel, walked: true})
		}
	}
}

// matches reports whether the file at rel matches the pattern, if any.
func (d *dirWalk) matches(rel string) bool {
	if d.rest == "" {
		return true
	}
	ok, _ := doublestar.Match(d.rest, rel)
	return ok
}

// mayContain reports whether the folder at rel may hold a match of the
// pattern: false only when a segment of rel fails the pattern's segment
// at its depth before any "**".
func (d *dirWalk) mayContain(rel string) bool {
	if d.rest == "" || d.segs == nil {
		return true
	}
	for i, c := range strings.Split(rel, "/") {
		if i >= len(d.segs)-1 {
			return slices.Contains(d.segs, "**")
		}
		if d.segs[i] == "**" {
			return true
		}
		if ok, _ := doublestar.Match(d.segs[i], c); !ok {
			return false
		}
	}
	return true
}

// excluded reports whether an Exclude pattern matches rel or name.
func (d *dirWalk) excluded(rel, name string) bool {
	for _, x := range d.opt.Exclude {
		if ok, _ := doublestar.Match(x, rel); ok {
			return true
		}
		if ok, _ := doublestar.Match(x, name); ok {
			return true
		}
	}
	return false
}

// settle runs the content checks (Check) of the walked files from
// w.files[from:] on as many goroutines as the process may run at once,
// each reading the start of its files, and drops the files a check
// skips, counting them: on a warm symbol index these reads are most of a
// walk's work, and they need not wait for one another. The files keep
// their order. With Options.DeferContentChecks it only marks them
// unchecked, and opens nothing. (The walk decided the language.)
func (w *walker) settle(from int) {
	pending := w.files[from:]
	if w.opt.DeferContentChecks {
		for i := range pending {
			pending[i].unchecked, pending[i].walked = pending[i].walked, false
		}
		return
	}
	reasons := make([]string, len(pending))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (len(pending)+settleBatch-1)/settleBatch) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pending) {
					return
				}
				if f := pending[i]; f.walked {
					reasons[i] = Check(f.path, w.opt.MaxSize)
				}
			}
		})
	}
	wg.Wait()
	kept := w.files[:from]
	for i, f := range pending {
		if reasons[i] != "" {
			w.skipped[reasons[i]]++
			continue
		}
		f.walked = false
		kept = append(kept, f)
	}
	clear(w.files[len(kept):]) // no names kept alive past the slice
	w.files = kept
}

// settleBatch is how many pending files make one more of settle's
// goroutines worth starting (up to GOMAXPROCS): a walk of under 64 files
// is checked by one.
const settleBatch = 64

// Check makes the content checks a walk makes of a walked file, which
// Options.DeferContentChecks leaves to the caller: it returns SkipTooLarge
// for a file over maxSize bytes (zero or less: edit.MaxFileSize),
// SkipBinary for a NUL byte in its first 8,000 bytes, and "" for a file
// that passes, or that cannot be opened as a regular file (a link or
// something else put in its place, or gone: the command reports it when
// it reads the file). It opens path without following a final link.
func Check(path string, maxSize int64) string {
	if maxSize <= 0 {
		maxSize = edit.MaxFileSize
	}
	// Raw system calls, four per file: open, fstat, read, close. An
	// os.File would add the runtime poller's attempt to register the file
	// and a second status call, and this runs once for every file of a
	// walk, even one whose symbols come from the index.
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(path, readFlags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return "" // the command reports it (a link put in its place too)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return "" // replaced since it was listed: the command reports it
	}
	if st.Size > maxSize {
		return SkipTooLarge
	}
	buf := make([]byte, min(binarySniffLen, max(st.Size, 0)))
	n := 0
	for n < len(buf) {
		k, err := ignoringEINTR(func() (int, error) { return unix.Read(fd, buf[n:]) })
		if err != nil || k == 0 {
			break
		}
		n += k
	}
	return Sniff(buf[:n], st.Size, maxSize)
}

// ignoringEINTR calls f until it fails with something other than EINTR.
func ignoringEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != unix.EINTR {
			return n, err
		}
	}
}

// ancestorPatterns finds the top of the work tree holding the folder whose
// real absolute path is abs (the nearest folder, abs included, with a .git
// entry) and returns the patterns of its .git/info/exclude and of the
// .gitignore files of the folders from the top down to abs's parent, and
// abs's components below the top. Without a work tree the top is abs
// itself. As abs holds no link and no "..", its parents by text are its
// real parents.
func ancestorPatterns(abs string) ([]gitignore.Pattern, []string, error) {
	top := ""
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if top == "" {
		return nil, nil, nil
	}
	ps, err := readIgnoreFile(filepath.Join(top, ".git", "info", "exclude"), nil)
	if err != nil {
		return nil, nil, err
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." {
		return ps, nil, err
	}
	domain := strings.Split(filepath.ToSlash(rel), "/")
	for i := range domain { // the folders above dir; dir's own file is read by the walk
		own, err := readIgnoreFile(filepath.Join(top, filepath.Join(domain[:i]...), ".gitignore"), slices.Clone(domain[:i]))
		if err != nil {
			return nil, nil, err
		}
		ps = append(ps, own...)
	}
	return ps, domain, nil
}

// readFlags open a file the walk reads: O_NONBLOCK, so
// that opening a named pipe returns at once instead of waiting for a
// writer forever, and O_NOCTTY; what was opened is then read only if
// fstat finds a regular file.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// readIgnoreFile parses the gitignore file at path, whose patterns apply
// below domain. A missing or unreadable file has none, and so has one
// that is not a regular file (a named pipe, a device, a folder), which is
// never read.
func readIgnoreFile(path string, domain []string) ([]gitignore.Pattern, error) {
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, err
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, sc.Err()
}

// braceHasSlash reports whether a {...} group of pattern holds a "/",
// which splitting the pattern at "/" would break.
func braceHasSlash(pattern string) bool {
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth > 0 {
				return true
			}
		}
	}
	return false
}
