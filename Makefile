# haul: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift
BUILD_FLAGS ?= -Xswiftc -warnings-as-errors
export SWIFT_BACKTRACE = interactive=no

.PHONY: demo test build release bench deps clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# `make demo HEADLESS=1` (or no terminal) runs the demo without the live list.
demo: build
	@BIN_DIR="$$($(SWIFT) build --show-bin-path)" scripts/demo.sh $(if $(HEADLESS),--headless)

test: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	# One test at a time: the end-to-end suites run real servers, tmux and many haul processes, and their
	# timing bounds should measure haul, not a 2-core machine running them all at once (about 2.5 min).
	$(SWIFT) test --skip-build --no-parallel

release: deps
	$(SWIFT) build -c release $(BUILD_FLAGS)

bench: release
	@scripts/install-deps.sh --bench
	@bench/run.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/tui.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/rpc.sh "$$($(SWIFT) build -c release --show-bin-path)"
	@bench/segmented.sh "$$($(SWIFT) build -c release --show-bin-path)"

clean:
	rm -rf .build
