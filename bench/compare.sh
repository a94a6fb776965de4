#!/usr/bin/env bash
# compare.sh: whole-process comparisons of symedit against the standard
# tools, run side by side, each reported as a ratio of medians:
#   (a) symedit symbols --json over Go's whole source tree against
#       Universal Ctags (ctags -R --fields=+ne --output-format=json), cold
#       (--no-cache: every file parsed) and (a') with a warm symbol index;
#   (b) symedit chunk on a 5,000-line Go file against cp of that file (the
#       floor for reading and writing it);
#   (b') the same chunk against symedit show of the same symbol, and (b'')
#       the chunk with --dry-run against the written chunk;
#   (c) symedit replace over a copy of net/http against find | xargs sed -i
#       doing the same literal replacement (fresh copy before every run);
#   (d) cold symbols against a bare tree-sitter parse of the same files at
#       the same parallelism (a Go benchmark);
#   (e) symedit check over GOROOT/src against gofmt -l over the same tree;
#   (f) symedit chunk on a 100,000-line Python file (CPython's
#       multiprocessing/process.py from testdata, repeated) against show of
#       the same symbol, RUNS_PY (default 9) interleaved pairs;
#   (g) the CPU time (user + system) of cold symbols against ctags' over
#       a mixed tree: GOROOT/src, the Python standard library and, when
#       a JDK's src.zip is found (JDK_SRC_ZIP), its java.base; ctags reads
#       the list of files symedit read; RUNS_CPU (default 5) interleaved
#       pairs.
#   (h) symedit replace over GOROOT/src plus the Python standard library
#       against rg -l | xargs sed -i (fresh copy before every run),
#       RUNS_REPLACE (default 7) interleaved pairs.
#   (i) with BENCH_TREE=path (a tree bench/tree.sh built, ~100k files):
#       warm symbols against ctags and against rg -c over the same
#       extensions, a cold run filling the index against --no-cache, the
#       index's disk use (blocks) against its bound, and a cmp of warm and
#       --no-cache output. BENCH_TREE_ONLY=1 runs only (i); RUNS_BIG
#       (default 3) sets the number of runs against ctags, RUNS_WARM
#       (default 5) and RUNS_FILL (default 9) the number of interleaved
#       pairs of the row against rg and of the fill's row.
# Each ratio is printed with its target where it has one.
# Then the peak resident memory of symedit symbols over the Go tree.
# Uses hyperfine; without it, a small repeated-runs harness (medians).
# Usage: bench/compare.sh [path/to/symedit]  (default: bin/symedit)
# Env: RUNS_TREE (default 3), RUNS (default 10) set the number of runs.
set -euo pipefail
bin=${1:-bin/symedit}
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
bin=$(realpath "$bin")
runs_tree=${RUNS_TREE:-3}
runs=${RUNS:-10}
command -v ctags >/dev/null || { echo "ctags missing: make deps-bench" >&2; exit 2; }
ctags --version | grep -q 'Universal Ctags' || { echo "ctags is not Universal Ctags" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
goroot=$(go env GOROOT)
src="$goroot/src"

# The file list of Go's tree, one xargs invocation (-s: room for all of it).
find "$src" -type f -name '*.go' | sort >"$work/gofiles"
nfiles=$(wc -l <"$work/gofiles")

# Does symedit symbols walk a directory itself yet? (Older builds did not.)
# The symbol index lives in a folder of this run's own: the
# cold row bypasses it (--no-cache), the warm row reads it as hyperfine's
# warm-up run left it.
export SYMEDIT_CACHE_DIR="$work/index"
if "$bin" symbols --json "$src/net/http" >/dev/null 2>&1; then
  sym_cmd="'$bin' symbols --no-cache --json '$src' >/dev/null"
  sym_how="symedit symbols --no-cache --json GOROOT/src (directory walk, cold: every file parsed)"
  warm_cmd="'$bin' symbols --json '$src' >/dev/null"
else
  sym_cmd="xargs -s 2000000 -a '$work/gofiles' '$bin' symbols --json >/dev/null"
  sym_how="symedit symbols --json over $nfiles files passed by xargs (no directory support yet)"
fi
ctags_cmd="ctags -R --fields=+ne --output-format=json -f - '$src' >/dev/null 2>&1"

# (b) A 5,000-line file of real Go: net/http/server.go followed by the
# declarations of transport.go (its package clause and imports dropped),
# cut at the last top-level closing brace at or before line 5,000.
big="$work/big.go"
{
  cat "$src/net/http/server.go"
  awk 'done { print; next } /^\)$/ { done = 1 }' "$src/net/http/transport.go"
} >"$work/cat.go"
cut=$(awk 'NR <= 5000 && /^}$/ { n = NR } END { print n }' "$work/cat.go")
head -n "$cut" "$work/cat.go" >"$big"
# A realistic chunk inside (*conn).serve: log the remote address once known.
cat >"$work/chunks.json" <<'JSON'
[{"context_before": "\tif ra := c.rwc.RemoteAddr(); ra != nil {",
  "old_lines": ["\t\tc.remoteAddr = ra.String()"],
  "new_lines": ["\t\tc.remoteAddr = ra.String()", "\t\tc.server.logf(\"http: serving %s\", c.remoteAddr)"],
  "context_after": "\t}"}]
JSON
cp "$big" "$work/edit.go"
"$bin" chunk "$work/edit.go::conn/serve" "$work/chunks.json" >/dev/null ||
  { echo "the chunk does not apply" >&2; exit 1; }
chunk_cmd="'$bin' chunk '$work/edit.go::conn/serve' '$work/chunks.json' >/dev/null"
dry_cmd="'$bin' chunk --dry-run '$work/edit.go::conn/serve' '$work/chunks.json' >/dev/null"
show_cmd="'$bin' show '$work/edit.go::conn/serve' >/dev/null"
chunk_prep="cp '$big' '$work/edit.go'"
cp_cmd="cp '$big' '$work/copy.go'"

# (c) The same literal replacement over a fresh copy of net/http.
tree="$work/http"
tree_prep="rm -rf '$tree' && cp -r '$src/net/http' '$tree'"
repl_cmd="find '$tree' -type f -name '*.go' -print0 | sort -z | xargs -0 '$bin' replace ResponseWriter ResponseWriterX >/dev/null"
sed_cmd="find '$tree' -type f -name '*.go' -print0 | sort -z | xargs -0 sed -i 's/ResponseWriter/ResponseWriterX/g'"
eval "$tree_prep" && eval "$repl_cmd" && cp -r "$tree" "$work/by-symedit" &&
  eval "$tree_prep" && eval "$sed_cmd" && diff -r "$work/by-symedit" "$tree" >/dev/null ||
  { echo "symedit replace and sed -i disagree" >&2; exit 1; }

# (e) check and gofmt -l over the Go tree; both exit non-zero on the
# go/parser test data's invalid files, which is not a failure here.
check_cmd="'$bin' check '$src' >/dev/null 2>&1 || true"
gofmt_cmd="gofmt -l '$src' >/dev/null 2>&1 || true"

# (f) A 100,000-line Python file: the fixture repeated; the chunk edits
# a method of a copy of the class in the middle.
pyfix="$(cd "$(dirname "$0")/.." && pwd)/testdata/src/python/process.py"
pybig="$work/big.py"
n=$(( (100000 + $(wc -l <"$pyfix") - 1) / $(wc -l <"$pyfix") ))
for ((i = 0; i < n; i++)); do cat "$pyfix"; done >"$pybig"
mid=$(( n / 2 ))
cat >"$work/pychunks.json" <<'JSON'
[{"context_before": "        self._check_closed()",
  "old_lines": ["        assert self._popen is None, 'cannot start a process twice'"],
  "new_lines": ["        assert self._popen is None, 'cannot start a process twice'", "        util.debug('starting')"],
  "context_after": "        assert self._parent_pid == os.getpid(), \\"}]
JSON
pyloc="$work/pyedit.py::BaseProcess[$mid]/start"
cp "$pybig" "$work/pyedit.py"
"$bin" chunk "$pyloc" "$work/pychunks.json" >/dev/null || { echo "the Python chunk does not apply" >&2; exit 1; }
pychunk_cmd="'$bin' chunk '$pyloc' '$work/pychunks.json' >/dev/null"
pyshow_cmd="'$bin' show '$pyloc' >/dev/null"
pychunk_prep="cp '$pybig' '$work/pyedit.py'"

# (g) The mixed tree: copies, since symedit's walk skips what git ignores
# (a pyenv install is under a git-ignored folder).
mixed="$work/mixed"
mkdir -p "$mixed"
pystd=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
if [ -d "$pystd" ]; then
  # Copied without site-packages rather than removed after (tree_rows).
  mkdir -p "$mixed/python" && tar -C "$pystd" --exclude=./site-packages -cf - . | tar -C "$mixed/python" -xf -
fi
# JDK_SRC_ZIP, else the first readable src.zip of an installed JDK (a
# link can dangle when a JDK's source package is gone).
jdkzip=${JDK_SRC_ZIP:-}
if [ -z "$jdkzip" ]; then
  for z in /usr/lib/jvm/*/lib/src.zip; do
    [ -r "$z" ] && { jdkzip=$z; break; }
  done
fi
if [ -n "$jdkzip" ] && [ -r "$jdkzip" ]; then
  (cd "$mixed" && unzip -q "$jdkzip" 'java.base/*') || true
fi
"$bin" symbols --no-cache --json "$src" "$mixed" 2>/dev/null |
  python3 -c 'import json, sys
for l in sys.stdin: print(json.loads(l)["path"])' >"$work/mixedfiles" || true
mixed_cmd="'$bin' symbols --no-cache --json '$src' '$mixed' >/dev/null 2>&1 || true"
ctags_mixed_cmd="ctags -L '$work/mixedfiles' --fields=+ne --output-format=json -f - >/dev/null 2>&1"

# median_of LABEL PREPARE CMD RUNS: the fallback harness; prints seconds.
median_of() {
  local prep=$2 cmd=$3 n=$4 i t0 t1
  : >"$work/times"
  for ((i = 0; i < n; i++)); do
    [ -n "$prep" ] && eval "$prep"
    t0=$(date +%s%N); eval "$cmd"; t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000)) >>"$work/times"
  done
  sort -n "$work/times" | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.6f\n", m / 1e6 }'
}

# compare NAME RUNS PREPARE CMD_A CMD_B: medians of A and B and A/B.
compare() {
  local name=$1 n=$2 prep=$3 a=$4 b=$5 ma mb
  echo "== $name"
  if command -v hyperfine >/dev/null; then
    local args=(--runs "$n" --style basic --export-json "$work/$name.json")
    [ -n "$prep" ] && args+=(--prepare "$prep")
    hyperfine "${args[@]}" -n symedit "$a" -n other "$b" >&2
    read -r ma mb < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["median"], r[1]["median"])' "$work/$name.json")
  else
    ma=$(median_of "$name" "$prep" "$a" "$n")
    mb=$(median_of "$name" "$prep" "$b" "$n")
  fi
  echo "$name $ma $mb" >>"$work/results"
}

# interleaved NAME RUNS CMD_A CMD_B [wall|cpu [PREPARE]]: RUNS pairs of
# runs of A and B (PREPARE, untimed, before each run),
# one right after the other, A first in every other pair, so that a
# change in the machine's load over the row (a shared 2-core machine
# drifts by 10% or more over minutes) falls on both alike; hyperfine runs
# all of A, then all of B. CMD_A and CMD_B run in bash with $k set to the
# pair's number, from 0. Prints each run's wall, user and system seconds;
# records the medians of the wall times (with cpu, of user + system) and,
# as the row's ratio, the median of the pairs' ratios, which a drift over
# the row moves less than a ratio of medians.
interleaved() {
  local name=$1 n=$2 a=$3 b=$4 what=${5:-wall} prep=${6:-} which cmd t0 t1
  echo "== $name ($n interleaved pairs)"
  : >"$work/$name-a"
  : >"$work/$name-b"
  for ((k = 0; k < n; k++)); do
    for which in $( ((k % 2)) && echo b a || echo a b); do
      cmd=$a
      [ "$which" = b ] && cmd=$b
      [ -z "$prep" ] || bash -c "$prep"
      t0=$(date +%s%N)
      k=$k /usr/bin/time -f "%U %S" -o "$work/cpu" bash -c "$cmd"
      t1=$(date +%s%N)
      # Each line: wall (µs), then the measure (seconds): wall or CPU.
      awk -v w=$(((t1 - t0) / 1000)) -v what="$what" '{ printf "%d %.6f\n", w, (what == "cpu") ? $1 + $2 : w / 1e6 }' "$work/cpu" >>"$work/$name-$which"
      echo "pair $k $([ "$which" = a ] && echo symedit || echo other): $(awk -v w=$(((t1 - t0) / 1000)) -v c="$(cat "$work/cpu")" 'BEGIN { split(c, x, " "); printf "%.3f s, user %s s, system %s s", w / 1e6, x[1], x[2] }')" >&2
    done
  done
  local ma mb ratio median='{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.6f\n", m }'
  ma=$(cut -d' ' -f2 "$work/$name-a" | sort -g | awk "$median")
  mb=$(cut -d' ' -f2 "$work/$name-b" | sort -g | awk "$median")
  ratio=$(paste -d' ' "$work/$name-a" "$work/$name-b" | awk '{ print $2 / $4 }' | sort -g | awk "$median")
  echo "$name $ma $mb $ratio" >>"$work/results"
}

# rg, for (h) and (i): $RG, else on PATH, else as make deps-bench or
# `apt-get download ripgrep` + dpkg -x left it under .cache/bench.
rg_bin=${RG:-$(command -v rg || true)}
[ -n "$rg_bin" ] || rg_bin="$(cd "$(dirname "$0")/.." && pwd)/.cache/bench/usr/bin/rg"

# ---- (i) the symbol index over a large mixed tree ----
# tree_rows runs (i). It runs before every other row, and nothing before
# it removes more than a few hundred files: (c) and (h) remove tens of
# thousands of copied files, and on an ext4 without a journal, as this
# machine's, the kernel steps over the inodes freed in the last 60 to 360
# seconds (reading their deletion times one by one) each time it gives a
# new file an inode, so that a fill's 2,433 new packs cost seconds more,
# or not, by where those inodes fall.
tree_rows() {
# The tree is built by bench/tree.sh (minutes for ~100k files), never here.
# rg sees the files symedit walks: the extensions symedit supports (read
# from its own error for an unknown one), .gitignore files honoured
# without a git work tree (--no-require-git), hidden files skipped; its
# empty pattern counts every line, so it reads every file whole. symedit
# exits non-zero on the tree's invalid UTF-8 test files: not a failure.
if [ -z "${BENCH_TREE:-}" ]; then
  echo "(i) skipped: BENCH_TREE is not set (bench/tree.sh builds a ~100k-file tree; then BENCH_TREE=path)"
else
  runs_big=${RUNS_BIG:-3}
  big_tree=$(realpath "$BENCH_TREE")
  [ -x "$rg_bin" ] || { echo "(i) rg missing: make deps-bench, or RG=..." >&2; exit 2; }
  big_index="$work/big-index"
  exts=$(echo x >"$work/x.zzz"; { "$bin" symbols "$work/x.zzz" 2>&1 || true; } | sed -n 's/.*supported extensions are //p' | head -1)
  [ -n "$exts" ] || { echo "(i) could not read symedit's extensions" >&2; exit 2; }
  rg_globs=""
  for e in $exts; do rg_globs="$rg_globs -g '*$e'"; done
  # Every timed command writes to /dev/null, as rg and ctags do; the
  # outputs compared by cmp come from runs of their own, after.
  big_warm="SYMEDIT_CACHE_DIR='$big_index' '$bin' symbols --json '$big_tree' >/dev/null 2>&1 || true"
  big_plain="'$bin' symbols --no-cache --json '$big_tree' >/dev/null 2>&1 || true"
  big_ctags="ctags -R --fields=+ne --output-format=json -f - '$big_tree' >/dev/null 2>&1"
  big_rg="'$rg_bin' -c --no-require-git $rg_globs '' '$big_tree' >/dev/null"
  echo "(i) $(find "$big_tree" -type f | wc -l) files in $big_tree; extensions: $exts"
  # Untimed, before each run of (i): the files every row reads, read
  # through once (rg over symedit's extensions, which walks the folders
  # too) and, for the warm rows, the index's packs. This machine's kernel
  # pages out file pages not touched for about a minute (DAMON's
  # proactive reclaim: /sys/kernel/mm/damon, action pageout, minimum age
  # 12 aggregation intervals of 5 s), and a tree read once per pair, 15
  # to 35 s apart, counts as idle to it: without this, whichever command
  # ran first after a reclaim read hundreds of MB from the disk (a fill
  # read 2 s more from the disk than the --no-cache run after it, in one
  # profile). Both commands of a pair then start with the tree in the
  # page cache, as when it is read over and over.
  warm_files="$big_rg; [ ! -d '$big_index' ] || cat '$big_index'/*/* >/dev/null 2>&1 || true"
  # Each cold run fills a folder of its own, never used before, and the
  # folders are removed after the row: removing an index right before a
  # fill (as this row did up to 2026-11-28) makes the fill pay for the
  # removal too (see tree_rows).
  echo "(i) cold: symbols --json filling an empty index (a new folder each run) vs --no-cache"
  # The setup's copies (the mixed tree, net/http, the large files) are
  # written back first, not during the row's first runs.
  sync -f "$work"
  runs_fill=${RUNS_FILL:-9}
  fill_k="SYMEDIT_CACHE_DIR='$work/fill-'\$k '$bin' symbols --json '$big_tree' >/dev/null 2>&1 || true"
  # Before each run, untimed, the file system is synced: a fill leaves
  # 75 MB of packs in the page cache, which the kernel writes back 30 s
  # later, inside whichever run comes next, and writing that much slowed
  # a --no-cache run beside it by 1-3 user seconds here (a virtual
  # machine's disk writes take CPU from its cores). Both commands then
  # start clean, as (h)'s do; what a fill writes during its own run still
  # counts.
  interleaved tree-cold-fill "$runs_fill" "$fill_k" "$big_plain" wall "sync -f '$work'; $warm_files"
  rm -rf "$work"/fill-*
  eval "$big_warm" # fills the index the warm rows read, whole
  echo "(i) warm symbols --json vs ctags -R"
  compare tree-warm-ctags "$runs_big" "$warm_files" "$big_warm" "$big_ctags"
  echo "(i) warm symbols --json vs rg -c over the same extensions"
  interleaved tree-warm-rg "${RUNS_WARM:-5}" "$big_warm" "$big_rg" wall "$warm_files"
  # Disk use in blocks (du), against the documented bound (DefaultMaxBytes).
  used=$(du -s -B1 "$big_index" | cut -f1)
  apparent=$(du -s -B1 --apparent-size "$big_index" | cut -f1)
  bound=$((256 << 20))
  echo "(i) index: $(find "$big_index" -type f ! -name pruned | wc -l) packs, $((used >> 20)) MiB on disk, $((apparent >> 20)) MiB apparent, bound $((bound >> 20)) MiB"
  echo "tree-disk $(awk -v u="$used" 'BEGIN { printf "%.1f", u / 1048576 }') $((bound >> 20))" >>"$work/results"
  # The warm output byte for byte against --no-cache's: 0 when identical.
  SYMEDIT_CACHE_DIR="$big_index" "$bin" symbols --json "$big_tree" >"$work/big-warm.json" 2>/dev/null || true
  "$bin" symbols --no-cache --json "$big_tree" >"$work/big-plain.json" 2>/dev/null || true
  differ=0; cmp -s "$work/big-warm.json" "$work/big-plain.json" || differ=1
  echo "(i) warm vs --no-cache output: $([ $differ = 0 ] && echo identical || echo DIFFERENT) ($(wc -c <"$work/big-plain.json") bytes)"
  echo "tree-cmp $differ 1" >>"$work/results"
fi
}

harness="hyperfine $(hyperfine --version 2>/dev/null | awk '{print $2}')"
command -v hyperfine >/dev/null || harness="repeated-runs fallback (hyperfine missing)"
echo "harness: $harness; runs: $runs_tree on the Go tree, $runs otherwise"
tree_rows
if [ -z "${BENCH_TREE_ONLY:-}" ]; then
echo "(a) $sym_how"
compare symbols "$runs_tree" "" "$sym_cmd" "$ctags_cmd"
if [ -n "${warm_cmd:-}" ]; then
  eval "$warm_cmd" # fill the index
  echo "(a') symedit symbols --json GOROOT/src with a warm symbol index vs ctags"
  compare symbols-warm "$runs_tree" "" "$warm_cmd" "$ctags_cmd"
fi
echo "(b) chunk on $(wc -l <"$big")-line $(basename "$big") ($(($(stat -c %s "$big") / 1024)) KB) vs cp"
compare chunk "$runs" "$chunk_prep" "$chunk_cmd" "$cp_cmd"
echo "(b') the same chunk (guard on, written) vs show of the same symbol"
compare chunk-show "$runs" "$chunk_prep" "$chunk_cmd" "$show_cmd"
echo "(b'') the same chunk with --dry-run vs written"
compare dryrun-write "$runs" "$chunk_prep" "$dry_cmd" "$chunk_cmd"
echo "(c) replace ResponseWriter over $(grep -c . < <(find "$src/net/http" -type f -name '*.go')) files of net/http vs sed -i"
compare replace "$runs" "$tree_prep" "$repl_cmd" "$sed_cmd"

echo "(e) check over GOROOT/src vs gofmt -l"
compare check-gofmt "$runs_tree" "" "$check_cmd" "$gofmt_cmd"
echo "(f) chunk on a $(wc -l <"$pybig")-line Python file vs show of the same symbol"
# Interleaved: hyperfine's ten runs of one and then ten of the other
# read 1.03x to 1.31x over five runs of this script, as the machine's
# speed drifted between the two halves; pairs run one after the other
# read 0.95x to 1.20x.
interleaved pychunk-show "${RUNS_PY:-9}" "$pychunk_cmd" "$pyshow_cmd" wall "$pychunk_prep"

echo "(g) CPU (user + system) of symbols --no-cache vs ctags over $(wc -l <"$work/mixedfiles") files: GOROOT/src, $([ -d "$mixed/python" ] && echo "the Python stdlib" || echo "no Python stdlib"), $([ -d "$mixed/java.base" ] && echo "java.base" || echo "no java.base (set JDK_SRC_ZIP)")"
# Interleaved: ctags' CPU time for the same list varies by half from run
# to run here (5.8 to 8.8 user seconds), symedit's by a fifth.
interleaved symbols-cpu "${RUNS_CPU:-5}" "$mixed_cmd" "$ctags_mixed_cmd" cpu
# (h) replace over a whole tree (GOROOT/src and the Python standard
# library, site-packages left out: its Latin-1 and KOI8-R test files hold
# no match and are skipped, not a refusal) against rg -l | xargs sed -i
# doing the same replacement on the same files (rg limited to the .go and
# .py files, where every match is), on a fresh copy before every run, in
# this script's own temporary folder, flushed to disk before the run
# (sync -f). --no-journal: sed keeps no undo
# record either. rg: rg_bin, found above.
pystd=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
if [ -x "$rg_bin" ] && [ -d "$pystd" ]; then
  rbase="$work/rtree-base" rtree="$work/rtree"
  mkdir -p "$rbase" && cp -r "$src" "$rbase/go" && cp -r "$pystd" "$rbase/py" && rm -rf "$rbase/py/site-packages"
  # sync -f: the copy's own writeback (413 MB) must not land inside the
  # measured run, where it would slow whichever command's fsync or write
  # meets it: both commands start on a clean page cache.
  rtree_prep="rm -rf '$rtree' && cp -r '$rbase' '$rtree' && sync -f '$rbase' '$rtree'"
  rtree_cmd="cd '$rtree' && '$bin' replace --no-journal bytes.Buffer bytes.Buffr . >/dev/null 2>&1"
  rgsed_cmd="cd '$rtree' && '$rg_bin' -l -F bytes.Buffer -g '*.go' -g '*.py' | xargs sed -i 's/bytes\\.Buffer/bytes.Buffr/g'"
  # Each in a subshell: its cd must not leave this shell in a folder the
  # next preparation removes.
  eval "$rtree_prep" && (eval "$rtree_cmd") && mv "$rtree" "$work/rtree-by-symedit" &&
    eval "$rtree_prep" && (eval "$rgsed_cmd") && diff -r "$work/rtree-by-symedit" "$rtree" >/dev/null ||
    { echo "symedit replace and rg | sed -i disagree over the tree" >&2; exit 1; }
  rm -rf "$work/rtree-by-symedit"
  echo "(h) replace bytes.Buffer over $(find "$rbase" -type f | wc -l) files (GOROOT/src + Python stdlib) vs rg -l | xargs sed -i"
  # Interleaved: three runs of each, one command after the other, spread
  # by 15-25% here (symedit 714-1004 ms, rg and sed 339-510 ms).
  interleaved replace-tree "${RUNS_REPLACE:-7}" "$rtree_cmd" "$rgsed_cmd" wall "$rtree_prep"
else
  echo "(h) skipped: needs ripgrep (RG=..., or make deps-bench) and python3's standard library" >&2
fi

# (d) cold symbols against a bare tree-sitter parse of the same files at
# the same parallelism, in one Go benchmark: ns/op of each.
echo "(d) symbols --no-cache vs a bare tree-sitter parse, GOROOT/src/net, Go benchmark"
if (cd "$(dirname "$0")/.." && go test -run '^$' -bench 'SymbolsColdVsParse' -benchtime 5x ./cmd/symedit/internal/app/) >"$work/bench.txt" 2>&1; then
  cold=$(awk '/symbols-cold/ { print $3 / 1e9 }' "$work/bench.txt")
  bare=$(awk '/bare-parse/ { print $3 / 1e9 }' "$work/bench.txt")
  echo "symbols-parse $cold $bare" >>"$work/results"
else
  cat "$work/bench.txt" >&2
fi
fi # BENCH_TREE_ONLY

# Each ratio with its target: "ok" when at or under it.
echo
printf '%-13s %12s %12s %9s %8s\n' comparison 'symedit (s)' 'other (s)' ratio target
# A row with a fourth field (interleaved) has its ratio given.
while read -r name ma mb given; do
  stat=medians
  [ -n "$given" ] && stat="medians; ratio: median of the pairs' ratios"
  case $name in
    symbols) other=ctags target=- ;;
    symbols-warm) other=ctags target=0.15 ;;
    symbols-parse) other='bare tree-sitter parse' target=1.1 ;;
    chunk) other=cp target=- ;;
    chunk-show) other=show target=1.3 ;;
    dryrun-write) other='chunk written' target=1.0 ;;
    replace) other='sed -i' target=5 ;;
    check-gofmt) other='gofmt -l' target=1.3 ;;
    pychunk-show) other=show target=1.2 ;;
    symbols-cpu) other='ctags, CPU time user+sys' target=1.5 stat="CPU medians; ratio: median of the pairs' ratios" ;;
    replace-tree) other='rg -l | sed -i' target=2.0 ;;
    tree-cold-fill) other='--no-cache' target=1.05 ;;
    tree-warm-ctags) other=ctags target=0.1 ;;
    tree-warm-rg) other='rg -c' target=1.5 ;;
    tree-disk) other='bound, MiB (symedit: MiB on disk)' target=1.0 ;;
    tree-cmp) other='1 (0: warm output identical to --no-cache)' target=0 ;;
  esac
  awk -v n="$name" -v o="$other" -v a="$ma" -v b="$mb" -v g="$given" -v t="$target" -v st="$stat" \
    'BEGIN { r = (g != "") ? g + 0 : a / b; v = (t == "-") ? "" : (r <= t + 0 ? "ok" : "OVER"); printf "%-13s %12.4f %12.4f %8.2fx %8s %s  (symedit / %s, %s)\n", n, a, b, r, t, v, o, st }'
done <"$work/results"

echo
/usr/bin/time -f %M -o "$work/rss" bash -c "$sym_cmd"
rss=$(cat "$work/rss")
echo "peak RSS, symedit symbols over the Go tree: $rss KB (target: under 250 MB: $([ "$rss" -lt 256000 ] && echo ok || echo OVER))"
