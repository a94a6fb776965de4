#!/usr/bin/env bash
# peak-memory.sh: whole-process time and peak resident memory of symedit
# edit on real code: one edit on a 10 MB file, and 1,000 edits on a 1 MB
# file. The files are made by concatenating Go's own source (net/http),
# each copy's package clause renamed so every line stays unique enough.
# Usage: bench/peak-memory.sh [path/to/symedit]  (default: bin/symedit)
set -euo pipefail
bin=${1:-bin/symedit}
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
bin=$(realpath "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$(go env GOROOT)/src/net/http"

# make FILE BYTES: real Go source, numbered copies, until FILE has BYTES.
make_file() {
  local out=$1 size=$2 i=0
  : >"$out"
  while [ "$(stat -c %s "$out")" -lt "$size" ]; do
    for f in "$src"/*.go; do
      sed "s/^package http\$/\/\/ copy $i of $(basename "$f")/" "$f" >>"$out"
      i=$((i + 1))
      [ "$(stat -c %s "$out")" -ge "$size" ] && break
    done
  done
}

measure() { # measure LABEL CMD...
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r secs kb <"$work/time"
  printf '%-44s %8.2f s %10d KB peak RSS\n' "$label" "$secs" "$kb"
}

make_file "$work/big.go" $((10 * 1024 * 1024))
first=$(grep -m1 -o '^// copy [0-9]* of' "$work/big.go")
printf '[{"old_text": "%s", "new_text": "// first copy of"}]' "$first" >"$work/one.json"
measure "edit: 1 edit on $(($(stat -c %s "$work/big.go") / 1024)) KB (--check=off)" \
  "$bin" edit --check=off "$work/big.go" "$work/one.json"

make_file "$work/mid.go" $((1024 * 1024))
# One edit per copy marker; when there are fewer than 1,000 copies, the
# rest rename an earlier edit's result again (each edit is checked on the
# result of the ones before it).
grep -o '^// copy [0-9]* of' "$work/mid.go" >"$work/markers"
python3 - "$work/many.json" "$work/markers" <<'PY'
import json, sys
path, markers = sys.argv[1], open(sys.argv[2]).read().split("\n")
markers = [m for m in markers if m][:1000]
edits = [{"old_text": m, "new_text": m.replace("// copy", "// edited copy", 1)} for m in markers]
k = 0
while len(edits) < 1000:  # chain renames on the same line: each applies to the previous result
    prev = edits[k]["new_text"]
    edits.append({"old_text": prev, "new_text": prev.replace("edited", "edited again", 1)})
    k += 1
json.dump(edits, open(path, "w"))
PY
measure "edit: 1,000 edits on $(($(stat -c %s "$work/mid.go") / 1024)) KB (syntax guard on)" \
  "$bin" edit "$work/mid.go" "$work/many.json"
