# The two commands: `make run` (the demo) and `make test`.
BUILD := build
ASAN_BUILD := build-asan
NODEBUG_BUILD := build-nodebug
BENCH_BUILD := build-bench
JOBS := $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build asan nodebug run test mutants bench format clean

all: build

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPREEMPT_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# The library with its debug checks compiled out (-DPREEMPT_DEBUG=OFF).
nodebug: deps
	@cmake -S . -B $(NODEBUG_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPREEMPT_DEBUG=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(NODEBUG_BUILD) -j $(JOBS)

run: build
	@$(BUILD)/preempt demo

# Every test twice: the normal build, then ASan+UBSan; and once more with
# the debug checks compiled out, so the build option stays honest.  Last,
# the ci subset of the mutants: the tests must still fail when the code is
# wrong (docs/testing.md).
test: build asan nodebug
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(NODEBUG_BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory mutants MUTANTS_SUBSET=ci

# Deliberate breakages (tests/mutants/mutants.txt), each applied alone to a
# scratch copy in build-mutants/; every one must make its tests fail.
# MUTANTS_SUBSET=TAG runs only the mutants tagged TAG (ci: make test's).
MUTANTS_SUBSET ?=
mutants: deps
	@scripts/mutants.sh $(if $(MUTANTS_SUBSET),-s $(MUTANTS_SUBSET))

bench: deps
	@cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DPREEMPT_TESTS=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BENCH_BUILD) -j $(JOBS)
	@bench/run.sh $(BENCH_BUILD)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(NODEBUG_BUILD) $(BENCH_BUILD) build-mutants
