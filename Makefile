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
# (.ci/run) runs both. deps-ruby and deps-php (below) extract Ruby and
# PHP, against whose parsers the Ruby and PHP fixtures are checked; where
# the package archive cannot be reached, those checks are skipped with a
# warning rather than failing the run (test-ruby and test-php fail).
RACE_PKGS := ./edit/... ./files/... ./guard/... ./diff/... ./textedit/... ./ops/... ./cmd/symedit/internal/... ./internal/symcache/... ./symbols/... ./lang/... ./walk/...

test: deps
	@$(MAKE) --no-print-directory deps-ruby deps-php deps-clang || echo "warning: Ruby, PHP or clang could not be extracted into .cache: their parser comparisons are skipped" >&2
	$(GO) vet ./...
	$(GO) test -short -race -count=1 $(RACE_PKGS)
	$(GO) test -short -count=1 $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")

# test-long: every test of every package without -short (the whole sweeps
# over GOROOT/src and the other real trees, samples of SQLite and
# googletest against clang), without the race detector; minutes. CI runs
# it after `make test`.
.PHONY: test-long
test-long: deps
	@$(MAKE) --no-print-directory deps-ruby deps-php deps-clang deps-rust || echo "warning: Ruby, PHP, clang or the Rust crates could not be extracted into .cache: their parser comparisons are skipped" >&2
	$(GO) test -count=1 -timeout 30m ./...

# test-parsers: symedit's symbols against each language's own parser over
# whole trees (go/ast over $GOROOT/src, Python's ast over CPython's standard
# library, javac's trees over the JDK's java.base sources from src.zip where
# present, rustc's unexpanded AST over the Rust standard library's sources
# from the toolchain and over the stable crates deps-rust extracts, Ruby's
# own parser over Ruby 3.1's library, which deps-ruby extracts,
# PHP-Parser over the PHP packages deps-php extracts, clang's AST over
# SQLite's amalgamation and googletest's sources);
# minutes, so not in `make test`, which runs the same checks over samples.
.PHONY: test-parsers
test-parsers: deps-ruby deps-php deps-clang deps-rust
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
	  apt-get download $(CLANG_DEBS) >/dev/null && \
	  for d in *.deb; do dpkg -x $$d ..; done; \
	fi
	@if [ ! -d .cache/cpp/usr/src/googletest ]; then \
	  mkdir -p .cache/cpp/debs && cd .cache/cpp/debs && \
	  apt-get download googletest >/dev/null && \
	  for d in *.deb; do dpkg -x $$d ..; done; \
	fi
	@$(GO) mod download -json github.com/mattn/go-sqlite3@v1.14.53 >/dev/null

# deps-rust: stable Rust crates as Debian ships their sources (the
# librust-*-dev packages install each crate under
# usr/share/cargo/registry/<crate>-<version>), extracted into $(RUSTCACHE)
# (apt-get download and dpkg -x: nothing installed; skipped when present).
# The rustc comparison (symbols/rustc_test.go) reads them besides the
# standard library, whose unstable syntax tree-sitter's grammar lacks;
# where the archive cannot be reached it warns and the crates are
# skipped.
RUSTCACHE  ?= .cache/rust-crates
RUST_CRATES := librust-serde-dev librust-serde-derive-dev librust-serde-json-dev librust-regex-dev \
               librust-regex-syntax-dev librust-syn-dev librust-proc-macro2-dev librust-memchr-dev \
               librust-itertools-dev librust-anyhow-dev librust-log-dev librust-bytes-dev librust-rand-dev \
               librust-rand-core-dev librust-clap-dev librust-tokio-dev librust-futures-util-dev \
               librust-hashbrown-dev librust-smallvec-dev librust-chrono-dev librust-libc-dev librust-nom-dev
.PHONY: deps-rust
deps-rust:
	@[ -d $(RUSTCACHE)/usr/share/cargo/registry ] || { \
	  mkdir -p $(RUSTCACHE)/debs && cd $(RUSTCACHE)/debs && \
	  apt-get download $(RUST_CRATES) >/dev/null && \
	  for deb in *.deb; do dpkg -x $$deb ..; done; } || \
	  echo "warning: Debian's archive cannot be reached: the Rust crates are not extracted and their rustc comparison is skipped" >&2

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

# test-ruby: symbols against Ruby's own parser (RubyVM::AbstractSyntaxTree
# for ranges, Ripper for name positions, through
# symbols/testdata/parsers/rubydefs.rb) over the Ruby fixtures and Ruby
# 3.1's whole library as Debian ships it (lib/ruby: the standard library
# and its bundled gems). deps-ruby extracts Debian's ruby3.1 and
# libruby3.1 packages into $(RUBYCACHE) (apt-get download and dpkg -x: no
# root, nothing installed; skipped when present); the tests run that ruby
# with LD_LIBRARY_PATH and RUBYLIB pointing into it.
RUBYCACHE ?= .cache/ruby
.PHONY: test-ruby deps-ruby
deps-ruby:
	@[ -x $(RUBYCACHE)/root/usr/bin/ruby3.1 ] || { \
	  mkdir -p $(RUBYCACHE) && cd $(RUBYCACHE) && \
	  apt-get download ruby3.1 libruby3.1 && \
	  for deb in *.deb; do dpkg -x $$deb root; done; }
test-ruby: deps-ruby
	SYMEDIT_PARSER_TREES=1 $(GO) test -count=1 -run 'TestRubyMatchesRuby' -v ./symbols

# test-php: symbols against PHP's grammar (PHP-Parser 4, whose grammar is
# PHP's own, for structure and ranges; PHP's tokenizer for name positions;
# through symbols/testdata/parsers/phpdefs.php) over the PHP fixtures and
# real PHP code: PHP-Parser itself and the Debian packages in PHPTREE
# (Symfony, Guzzle, Doctrine and Illuminate components). deps-php extracts
# Debian's php8.2-cli, php8.2-common (the tokenizer extension) and
# php-parser into $(PHPCACHE)/root and PHPTREE into $(PHPCACHE)/corpus
# (apt-get download and dpkg -x; skipped when present); the tests run that
# php with -n and the tokenizer extension loaded from there.
PHPCACHE ?= .cache/php
PHPTREE  := php-symfony-console php-symfony-http-foundation php-symfony-dependency-injection \
            php-guzzlehttp-guzzle php-guzzlehttp-psr7 php-guzzlehttp-promises php-doctrine-orm \
            php-doctrine-dbal php-illuminate-collections php-illuminate-support
.PHONY: test-php deps-php
deps-php:
	@[ -x $(PHPCACHE)/root/usr/bin/php8.2 ] || { \
	  mkdir -p $(PHPCACHE)/debs && cd $(PHPCACHE)/debs && \
	  apt-get download php8.2-cli php8.2-common php-parser && \
	  for deb in *.deb; do dpkg -x $$deb ../root; done; }
	@[ -d $(PHPCACHE)/corpus/usr/share/php ] || { \
	  mkdir -p $(PHPCACHE)/corpus-debs && cd $(PHPCACHE)/corpus-debs && \
	  apt-get download $(PHPTREE) && \
	  for deb in *.deb; do dpkg -x $$deb ../corpus; done; }
test-php: deps-php
	SYMEDIT_PARSER_TREES=1 $(GO) test -count=1 -run 'TestPHPMatchesPHPParser' -v ./symbols

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
	PATH="$(abspath $(BENCHCACHE))/usr/bin:$$PATH" bench/compare.sh $(BIN)

# deps-bench: hyperfine, Universal Ctags and ripgrep from Debian's
# packages, for bench-compare only (make test does not need them):
# downloaded and extracted under $(BENCHCACHE) (nothing is installed),
# each skipped when the machine already has the command. compare.sh puts
# $(BENCHCACHE)/usr/bin first on PATH.
BENCHCACHE ?= .cache/bench
deps-bench:
	@for pkg in hyperfine:hyperfine ctags:universal-ctags rg:ripgrep; do \
	  tool=$${pkg%%:*}; deb=$${pkg#*:}; \
	  command -v $$tool >/dev/null 2>&1 && continue; \
	  [ -x $(BENCHCACHE)/usr/bin/$$tool ] && continue; \
	  echo "extracting $$deb from Debian's packages into $(BENCHCACHE)"; \
	  (mkdir -p $(BENCHCACHE)/debs && cd $(BENCHCACHE)/debs && apt-get download $$deb && dpkg -x $${deb}_*.deb ..) >/dev/null || echo "cannot extract $$deb" >&2; \
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

# test-csharp: symbols against the parser of mcs, Mono's C# compiler (its
# library Mono.CSharp.dll, driven by symbols/testdata/parsers/McsSymbols.cs),
# over the C# fixtures and FlatBuffers's and Apache Thrift's C# sources. Mono comes from
# Debian's packages, downloaded and extracted into $(CSCACHE)/root (no
# install, nothing outside the worktree); the two trees from the Go
# module proxy. Each step is skipped when its result is already there.
CSCACHE    ?= .cache/csharp
MONO_DEBS  := mono-mcs mono-runtime-sgen mono-runtime-common libmono-corlib4.5-cil libmono-corlib4.5-dll \
              libmono-csharp4.0c-cil libmono-system4.0-cil libmono-system-core4.0-cil libmono-system-xml4.0-cil \
              libmono-microsoft-csharp4.0-cil libmono-system-configuration4.0-cil libmono-security4.0-cil \
              libmono-system-numerics4.0-cil
CS_TREE_MODS := github.com/google/flatbuffers@v24.3.25+incompatible github.com/apache/thrift@v0.20.0
.PHONY: test-csharp deps-csharp
deps-csharp:
	@[ -f $(CSCACHE)/root/usr/lib/mono/4.5/mcs.exe ] && [ -f $(CSCACHE)/root/usr/lib/mono/4.5/mscorlib.dll ] || { \
	  mkdir -p $(CSCACHE)/debs $(CSCACHE)/root && cd $(CSCACHE)/debs && \
	  apt-get download $(MONO_DEBS) && for d in *.deb; do dpkg -x $$d ../root; done; }
test-csharp: deps-csharp
	SYMEDIT_MCS_ROOT=$(abspath $(CSCACHE))/root \
	SYMEDIT_CS_TREE=$$($(GO) mod download -json $(CS_TREE_MODS) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$$/\1/p' | paste -sd:) \
	  $(GO) test -count=1 -run 'TestCSharpMatchesMcs' -v ./symbols
