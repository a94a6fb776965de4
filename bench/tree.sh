#!/usr/bin/env bash
# tree.sh: builds a large mixed source tree for the symbol index's
# whole-tree benchmark (bench/compare.sh section (g), BENCH_TREE=path),
# from what the machine has; the tree is never committed.
#   N copies of $(go env GOROOT)/src (N = COPIES, default 6),
#   the Python standard library of the machine's python3, twice,
#   the JDK's java.base sources (from src.zip) when present,
#   typescript and rxjs from npm when npm can fetch them.
# Usage: bench/tree.sh [folder]  (default: a new mktemp -d folder)
# Prints the folder on the first line, then its regular-file count.
# It writes and deletes only inside its own folder: an existing folder
# given as argument gets a "tree" folder of its own, replaced on a rerun.
set -euo pipefail
copies=${COPIES:-6}
top=${1:-$(mktemp -d)}
mkdir -p "$top"
dir="$(realpath "$top")/tree"
rm -rf "$dir"
mkdir -p "$dir"

goroot=$(go env GOROOT)
for i in $(seq 1 "$copies"); do
  mkdir -p "$dir/go$i"
  cp -r "$goroot/src/." "$dir/go$i/"
done

if command -v python3 >/dev/null; then
  py=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')
  for i in 1 2; do
    mkdir -p "$dir/python$i"
    cp -r "$py/." "$dir/python$i/"
    # site-packages is not the standard library; __pycache__ holds bytecode.
    rm -rf "$dir/python$i/site-packages"
    find "$dir/python$i" -name __pycache__ -type d -prune -exec rm -rf {} +
  done
fi

# JDK_SRC_ZIP, else the first readable src.zip of an installed JDK.
src_zip=${JDK_SRC_ZIP:-}
if [ -z "$src_zip" ]; then
  for z in /usr/lib/jvm/*/lib/src.zip; do
    [ -r "$z" ] && { src_zip=$z; break; }
  done
fi
if [ -n "$src_zip" ] && [ -r "$src_zip" ] && command -v unzip >/dev/null; then
  mkdir -p "$dir/jdk"
  unzip -q "$src_zip" 'java.base/*' -d "$dir/jdk" || echo "tree.sh: unzip of java.base failed; left out" >&2
else
  echo "tree.sh: no JDK sources ($src_zip); left out (COPIES=8 makes up the count)" >&2
fi

if command -v npm >/dev/null; then
  mkdir -p "$dir/npm"
  if ! npm install --prefix "$dir/npm" --no-audit --no-fund --ignore-scripts typescript rxjs >/dev/null 2>&1; then
    echo "tree.sh: npm could not fetch typescript and rxjs; left out" >&2
  fi
fi

echo "$dir"
find "$dir" -type f | wc -l
