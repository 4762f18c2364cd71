# haul: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift
BUILD_FLAGS ?= -Xswiftc -warnings-as-errors
export SWIFT_BACKTRACE = interactive=no

.PHONY: demo test test-unit test-engine test-e2e test-build test-tsan tsan-build build release release-haul bench bench-scale deps test-deps clean install uninstall deb

# `deps`: what builds and runs haul (build, release, install, deb); `test-deps` adds the test servers and tools.
deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# `make demo HEADLESS=1` (or no terminal) runs the demo without the live list.
demo: build
	@BIN_DIR="$$($(SWIFT) build --show-bin-path)" scripts/demo.sh $(if $(HEADLESS),--headless)

# Tests in tiers, by test target, one build for all: `make test-unit` (pure values and the store: no server, no haul
# process; about 30 s of tests), `make test-engine` (libcurl, the fault server and the RPC server on loopback),
# `make test-e2e` (the built haul against real servers, tmux and nginx). `make test` runs every tier one test at a time
# (CI builds the sanitizer's tests beside it: unit tests run in parallel there waited seconds for a thread).
UNIT_TARGETS = HaulCoreTests|HaulStoreTests|HaulSettingsTests|HaulReportTests|HaulTUITests
ENGINE_TARGETS = HaulTransferTests|FaultServerTests|HaulRemoteTests
E2E_TARGETS = HaulEndToEndTests
# The end-to-end tests run the programs this build made and nothing else (HaulProcess.binary(named:)).
RUN_TESTS = HAUL_BIN_DIR="$$($(SWIFT) build --show-bin-path)" $(SWIFT) test --skip-build
# One test at a time outside the unit tier: those suites run real servers, tmux and many haul processes, and
# their bounds should measure haul, not a 2-core machine running them all at once.
SERIAL = --no-parallel

test-build: test-deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@# Every test target is in a tier, so the three tiers together are `make test`.
	@untiered=$$($(SWIFT) test list --skip-build | cut -d. -f1 | sort -u \
		| grep -Ev '^($(UNIT_TARGETS)|$(ENGINE_TARGETS)|$(E2E_TARGETS))$$'); \
	if [ -n "$$untiered" ]; then echo "test targets in no tier (add them to the Makefile's lists):" $$untiered; exit 1; fi

test: test-build
	$(RUN_TESTS) $(SERIAL)

test-unit: test-build
	$(RUN_TESTS) --filter '^($(UNIT_TARGETS))\.'

test-engine: test-build
	$(RUN_TESTS) $(SERIAL) --filter '^($(ENGINE_TARGETS))\.'

test-e2e: test-build
	$(RUN_TESTS) $(SERIAL) --filter '^($(E2E_TARGETS))\.'

# The engine and controller suites under the thread sanitizer (any report fails the run), in their own build
# directory. Bounded: on 2 cores a clean build takes about 3 min and the run 1 min; they give up after
# 8 and 4 min (12 min at worst). Shared state is locked with PthreadMutex, which the sanitizer sees
# (it cannot see Synchronization.Mutex). The end-to-end suites are left out: over 5 min under the sanitizer.
# SIGINT, not timeout's SIGTERM: `swift test` runs the tests in their own process group and stops them only
# when it is interrupted (a SIGTERM left them running). Left out: StreamMemoryBoundTests (a minute under the
# sanitizer for the stream's memory arithmetic, whose threads StreamEngineTests already runs) and the stalled
# connection's timing test (the sanitizer's slowness changes how many connections it sees; `make test` runs it).
TSAN_TIMEOUT = timeout --signal=INT --kill-after=30
TSAN_FLAGS = --sanitize=thread --scratch-path .build-tsan
TSAN_SUITES = HaulTransferTests\.|HaulCoreTests\.(DownloadController|SlotPolicy|TaskLifecycle|SegmentLedger)
TSAN_SKIP = HaulTransferTests\.(StreamMemoryBoundTests|SegmentedTests/oneStalledConnection)
# The build alone (`.ci/run` starts it beside `make test`, with a longer bound: TSAN_BUILD_LIMIT seconds).
TSAN_BUILD_LIMIT ?= 480
tsan-build: test-deps
	$(TSAN_TIMEOUT) $(TSAN_BUILD_LIMIT) $(SWIFT) build --build-tests $(TSAN_FLAGS) $(BUILD_FLAGS)

test-tsan: tsan-build
	$(TSAN_TIMEOUT) 240 $(SWIFT) test --skip-build --no-parallel $(TSAN_FLAGS) --filter '$(TSAN_SUITES)' --skip '$(TSAN_SKIP)'

# The Swift runtime and Foundation linked in: the binary runs without the toolchain's libraries, starts about
# 5 ms sooner and peaks about 4 MiB lower. Only the two programs (the test support library needs the toolchain).
# Bound at load time (-z now), as Debian's hardening asks.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xlinker -z -Xlinker now $(BUILD_FLAGS)
release-haul: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product haul

release: release-haul
	$(SWIFT) build $(RELEASE_FLAGS) --product haul-fault-server

# `make install PREFIX=~/.local` (DESTDIR for packagers): the static release binary, the man page, completions,
# themes and the systemd user unit; `make uninstall` (same PREFIX and DESTDIR) removes exactly those.
PREFIX ?= /usr/local
install: release-haul
	$(SWIFT) build $(RELEASE_FLAGS) --product haul-manual
	@scripts/install.sh "$$($(SWIFT) build -c release --show-bin-path)" "$(DESTDIR)$(PREFIX)" "$(PREFIX)" \
		"$$($(SWIFT) build -c release --show-bin-path)/haul-manual"

uninstall:
	@scripts/uninstall.sh "$(DESTDIR)$(PREFIX)"

# `make deb`: haul_VERSION-1_amd64.deb here, from the release build (scripts/deb.sh), checked by lintian when it
# is installed (`make test-deps` installs it); lintian's errors fail the target.
MAINTAINER ?= haul maintainers <haul@example.org>
deb: release-haul
	$(SWIFT) build $(RELEASE_FLAGS) --product haul-manual
	@package=$$(scripts/deb.sh "$$($(SWIFT) build -c release --show-bin-path)" \
		"$$($(SWIFT) build -c release --show-bin-path)/haul-manual" . "$(MAINTAINER)") && ls -l "$$package" && \
	if command -v lintian >/dev/null; then lintian --fail-on error "$$package"; else echo "lintian is not installed: not checked"; fi

bench: release
	@scripts/install-deps.sh --bench
	@bench/run.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/tui.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/rpc.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/queuecpu.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/segmented.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/rationed.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/killsoak.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/cap.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/share.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/listmemory.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/manytasks.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/tinyfiles.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/stream.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/lecture.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/dash.sh "$$($(SWIFT) build -c release --show-bin-path)"

# A queue of 100,000 tasks (add, list, pause --all, an idle daemon) beside aria2c holding the same links; about 3 min.
bench-scale: release
	@scripts/install-deps.sh --bench
	@bench/scale.sh "$$($(SWIFT) build -c release --show-bin-path)"

clean:
	rm -rf .build .build-tsan

# libFuzzer targets (Fuzz/): one per parser that meets hostile input. `make fuzz` runs each for FUZZ_SECONDS (60)
# from the committed corpus (Fuzz/Corpus/TARGET), new inputs kept in .build-fuzz/corpus; a crash, a broken
# invariant or an input slower than 2 s fails it and leaves the input in .build-fuzz/artifacts. `make fuzz-ci`:
# 10 s each, one minute in all. Release build with ASan; lld links it (gold crashes on the sanitized objects).
# The theme target runs without leak detection: TOMLKit's C++ bridge leaks about 1.4 KB a parse (once a run in haul).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = fuzz-json-rpc fuzz-url-intake fuzz-content-disposition fuzz-content-range fuzz-input-file fuzz-theme fuzz-playlist
FUZZ_BUILD = $(SWIFT) build -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	-Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
FUZZ_BIN = .build-fuzz/x86_64-unknown-linux-gnu/release

.PHONY: fuzz fuzz-ci fuzz-build
fuzz-build: deps
	@for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product $$target 2>&1 | grep -v "Cannot export local symbol" || exit 1; done

fuzz: fuzz-build
	@mkdir -p .build-fuzz/artifacts
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		extra=""; leaks=1; [ $$target = fuzz-theme ] && { extra=-detect_leaks=0; leaks=0; }; \
		ASAN_OPTIONS=detect_leaks=$$leaks $(FUZZ_BIN)/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 $$extra $(FUZZ_EXTRA) \
			-artifact_prefix=.build-fuzz/artifacts/$$target- .build-fuzz/corpus/$$target Fuzz/Corpus/$$target \
			> .build-fuzz/$$target.log 2>&1 || { tail -40 .build-fuzz/$$target.log; exit 1; }; \
		grep -E "stat::number_of_executed_units|stat::new_units_added" .build-fuzz/$$target.log | tr '\n' ' '; echo; \
	done

# CI fuzzes from a fixed seed, so a run that passed here passes there (new finds come from `make fuzz`).
fuzz-ci:
	@timeout --kill-after=30 900 $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=10 FUZZ_EXTRA=-seed=1
