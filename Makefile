# symedit's build, demo, tests and lint. `make demo` and `make test` work on a
# fresh clone: `deps` installs what the tests need (Go modules from the
# module proxy; git and patch from Debian's packages when they are missing).

GO          ?= go
BIN         := bin/symedit
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: all build install demo test deps lint bench fuzz clean

all: build

# build stamps the VCS revision that `symedit version` prints, even where
# GOFLAGS says -buildvcs=false (as on this machine).
build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/symedit

# install: the binary into $(PREFIX)/bin when PREFIX is set, else into
# go install's folder ($GOBIN, else $(go env GOPATH)/bin), stamped with the
# VCS revision as build does.
install:
ifdef PREFIX
	mkdir -p $(PREFIX)/bin
	$(GO) build -buildvcs=auto -o $(PREFIX)/bin/symedit ./cmd/symedit
else
	$(GO) install -buildvcs=auto ./cmd/symedit
endif

# demo: the main job on bundled real input: a dry-run chunk edit of a method
# of CPython's multiprocessing/process.py; prints the unified diff.
demo: build
	./$(BIN) chunk --dry-run testdata/src/python/process.py::BaseProcess/start testdata/demo/chunks.json

deps:
	$(GO) mod download
	@for tool in git patch; do \
	  command -v $$tool >/dev/null 2>&1 && continue; \
	  echo "installing $$tool from Debian's packages"; \
	  (apt-get update -qq && apt-get install -y -qq $$tool) >/dev/null || { echo "cannot install $$tool" >&2; exit 1; }; \
	done

# test: go vet, then every package's tests with -short: under the race
# detector where concurrency lives (RACE_PKGS: worker pools, file locks and
# the atomic commit, the MCP server, the symbol index, the walk's concurrent
# checks, concurrent use of the grammars and of symbol extraction), without it for the pure packages,
# which it would only slow down (reply, chunk and match by 5 to 10 times),
# and for cmd/symedit's end-to-end scripts, which run the race-built test
# binary once per command (10 times slower) while the pools they drive are
# raced by ops's and app's own tests. -short samples the long sweeps over
# real trees (GOROOT/src, CPython); test-long runs them whole. CI
# (.ci/run) runs both.
RACE_PKGS := ./edit/... ./files/... ./guard/... ./diff/... ./textedit/... ./ops/... ./cmd/symedit/internal/... ./internal/symcache/... ./symbols/... ./lang/... ./walk/...

test: deps deps-clang
	$(GO) vet ./...
	$(GO) test -short -race -count=1 $(RACE_PKGS)
	$(GO) test -short -count=1 $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")

# test-long: every test of every package without -short (the whole sweeps
# over GOROOT/src and the other real trees, samples of SQLite and
# googletest against clang), without the race detector; minutes. CI runs
# it after `make test`.
.PHONY: test-long
test-long: deps deps-clang
	$(GO) test -count=1 -timeout 30m ./...

# test-parsers: symedit's symbols against each language's own parser over
# whole trees (go/ast over $GOROOT/src, Python's ast over CPython's standard
# library, javac's trees over the JDK's java.base sources from src.zip where
# present, rustc's unexpanded AST over the Rust standard library's sources
# from the toolchain, clang's AST over SQLite's amalgamation and
# googletest's sources); minutes, so not in `make test`, which runs the same
# checks over samples.
.PHONY: test-parsers
test-parsers: deps-clang
	SYMEDIT_PARSER_TREES=1 $(GO) test -count=1 -timeout 30m -run 'WholeTree' ./symbols

# deps-clang: the C and C++ authority and real trees, into .cache (nothing
# is installed): Debian's clang-14 (with the libraries it links and its
# resource headers) extracted under .cache/clang, googletest's sources
# (Debian's googletest package) under .cache/cpp, and SQLite's
# amalgamation from the Go module proxy (go-sqlite3's sqlite3-binding.c).
# Each step is skipped when its result is there. The C and C++ tests skip
# without them.
CLANG_DEBS := clang-14 libclang-cpp14 libllvm14 libclang-common-14-dev
.PHONY: deps-clang
deps-clang:
	@if [ ! -x .cache/clang/usr/lib/llvm-14/bin/clang ]; then \
	  mkdir -p .cache/clang/debs && cd .cache/clang/debs && \
	  { apt-get download $(CLANG_DEBS) >/dev/null 2>&1 || { apt-get update -qq && apt-get download $(CLANG_DEBS) >/dev/null; }; } && \
	  for d in *.deb; do dpkg -x $$d ..; done; \
	fi
	@if [ ! -d .cache/cpp/usr/src/googletest ]; then \
	  mkdir -p .cache/cpp/debs && cd .cache/cpp/debs && \
	  { apt-get download googletest >/dev/null 2>&1 || { apt-get update -qq && apt-get download googletest >/dev/null; }; } && \
	  for d in *.deb; do dpkg -x $$d ..; done; \
	fi
	@$(GO) mod download -json github.com/mattn/go-sqlite3@v1.14.53 >/dev/null

# test-typescript: symbols against the TypeScript compiler's parser over the
# hand-written fixtures and rxjs's sources. It needs node and the npm
# registry (typescript and rxjs are fetched into $(TSCACHE)), so it is not
# in `make test`, which checks the fixtures against expected ranges.
TSCACHE ?= .cache/typescript
.PHONY: test-typescript
test-typescript:
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "test-typescript needs node and npm" >&2; exit 1; }
	mkdir -p $(TSCACHE)
	cd $(TSCACHE) && npm install --no-audit --no-fund --no-save typescript@5.9.3 >/dev/null
	cd $(TSCACHE) && [ -d rxjs/package/src ] || { npm pack rxjs@7.8.2 >/dev/null && mkdir -p rxjs && tar xzf rxjs-7.8.2.tgz -C rxjs; }
	SYMEDIT_TS_MODULE=$(abspath $(TSCACHE))/node_modules/typescript SYMEDIT_TS_TREE=$(abspath $(TSCACHE))/rxjs/package/src \
	  $(GO) test -count=1 -run 'TestTypeScriptMatchesCompiler' -v ./symbols

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); [ -z "$$out" ] || { echo "gofmt would change: $$out"; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# bench-compare: whole-process comparisons, as ratios of medians (hyperfine):
# symedit symbols over GOROOT/src vs Universal Ctags, symedit chunk on a
# 5,000-line file vs cp, symedit replace over net/http vs sed -i; then the
# peak RSS of symbols over the Go tree. See BENCHMARKS.md.
.PHONY: bench-compare bench-tokens deps-bench
bench-compare: build deps-bench
	bench/compare.sh $(BIN)

# deps-bench: hyperfine and Universal Ctags from Debian's packages, for
# bench-compare only (make test does not need them).
deps-bench:
	@for pkg in hyperfine:hyperfine ctags:universal-ctags; do \
	  tool=$${pkg%%:*}; deb=$${pkg#*:}; \
	  command -v $$tool >/dev/null 2>&1 && continue; \
	  echo "installing $$deb from Debian's packages"; \
	  (apt-get update -qq && apt-get install -y -qq $$deb) >/dev/null || echo "cannot install $$deb" >&2; \
	done

# bench-tokens: tokens per edit, chunks vs whole body, SEARCH/REPLACE and
# unified diff, on real Go and Python functions (its own module,
# bench/tokens, so the tokenizer stays out of the binary).
bench-tokens:
	cd bench/tokens && $(GO) run .

# fuzz: every fuzz target of every package, one after the other, each for
# FUZZTIME (its seed corpus included); a failing input is minimized for at most
# FUZZMINIMIZE, so that a failure cannot eat the next targets' time.
# Each target must get past its seed corpus to new
# inputs ("now fuzzing"), or make fuzz fails.
FUZZTIME     ?= 10s
FUZZMINIMIZE ?= 2s
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$target"; \
	    out=$$($(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg 2>&1) || { echo "$$out"; exit 1; }; \
	    echo "$$out" | grep 'execs: [1-9]' | tail -1; \
	    echo "$$out" | grep -q 'now fuzzing' || { echo "$$out"; echo "$$target did not get past its seed corpus: raise FUZZTIME" >&2; exit 1; }; \
	  done; \
	done

clean:
	rm -rf bin
