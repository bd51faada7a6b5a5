# The two commands of the quick start are `make run` and `make test`; both install missing
# system packages first (scripts/ensure-deps.sh).

CARGO ?= cargo
# CI builds once from a clean checkout: incremental caches would only take disk there. Any
# CI value but empty, false or 0 counts as CI (the tests read it the same way).
ifneq ($(filter-out false 0,$(CI)),)
export CARGO_INCREMENTAL := 0
endif
# Arguments for `make run`, e.g. make run ARGS="--instances 20000". The default crowd is
# small enough that lavapipe (software Vulkan, the device of a machine without a GPU) still
# shows a few frames a second; on a GPU ask for tens of thousands.
ARGS ?= --instances 500

.PHONY: run test deps build lint unit bench fuzz seed-corpus clean

run: deps
	$(CARGO) run --release -- info
	$(CARGO) run --release -- run $(ARGS)

test: deps lint unit

deps:
	@scripts/ensure-deps.sh
	@scripts/shaderc-lib.sh

build: deps
	$(CARGO) build --release

# Formatting, lints and the API documentation are part of the test: CI fails on any of them.
# Clippy runs with and without the optional `assimp` feature, so neither build rots; the tests
# run with it. The documentation must build without a warning (a broken link is one), both as
# users read it and with the private modules, whose docs are the map a contributor reads.
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings
	$(CARGO) clippy --all-targets --locked --features assimp -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --locked --document-private-items

unit:
	CARGO=$(CARGO) scripts/run-tests.sh --locked --features assimp

bench: deps
	$(CARGO) bench

# Fuzz one loader with cargo-fuzz (nightly toolchain and `cargo install cargo-fuzz` needed):
# make fuzz FUZZ_TARGET=gltf FUZZ_RUNS=1000000
FUZZ_TARGET ?= m3d
FUZZ_RUNS ?= 1000000
fuzz:
	$(CARGO) +nightly fuzz run $(FUZZ_TARGET) fuzz/corpus/$(FUZZ_TARGET) -- -dict=fuzz/$(FUZZ_TARGET).dict -runs=$(FUZZ_RUNS)

# Rewrite the glTF fuzz target's seed corpus (fuzz/corpus/gltf) from the test fixture; run
# when the fixture changes (tests/gltf_fuzz_corpus.rs replays the corpus).
seed-corpus:
	$(CARGO) run --locked --example gltf_seed_corpus

clean:
	$(CARGO) clean
