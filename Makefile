# The two commands: `make run` (the demo) and `make test`.
BUILD := build
ASAN_BUILD := build-asan
NODEBUG_BUILD := build-nodebug
ARM64_BUILD := build-arm64
BENCH_BUILD := build-bench
INSTALL_BUILD := build-install
PREFIX ?= /usr/local
DESTDIR ?=
JOBS := $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build release asan nodebug arm64 run test mutants bench soak torture format clean kernel-check install uninstall docs audit-linux sim-check

all: build

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPREEMPT_SANITIZE=ON -DPREEMPT_TEST_UCONTEXT=OFF -DPREEMPT_LINT=OFF -DPREEMPT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# For measuring: optimized, the debug checks compiled out (the default
# build keeps them on, and its locks are several times slower:
# docs/PERFORMANCE.md, "Uncontended locks", part 3).
RELEASE_BUILD := build-release
release: deps
	@cmake -S . -B $(RELEASE_BUILD) -DCMAKE_BUILD_TYPE=Release -DPREEMPT_DEBUG=OFF -DPREEMPT_TESTS=OFF -DPREEMPT_LINT=OFF -DPREEMPT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(RELEASE_BUILD) -j $(JOBS)
	@echo "release build (debug checks off): $(RELEASE_BUILD)/preempt, $(RELEASE_BUILD)/libpreempt.so"

# The library with its debug checks compiled out (-DPREEMPT_DEBUG=OFF).
nodebug: deps
	@cmake -S . -B $(NODEBUG_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPREEMPT_DEBUG=OFF -DPREEMPT_TEST_UCONTEXT=OFF -DPREEMPT_LINT=OFF -DPREEMPT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(NODEBUG_BUILD) -j $(JOBS)

# The arm64 port, cross-compiled with Debian's aarch64-linux-gnu-gcc against
# the arm64 multiarch libraries; ctest runs every test under qemu-aarch64.
arm64: deps
	@cmake -S . -B $(ARM64_BUILD) -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPREEMPT_TEST_UCONTEXT=OFF -DPREEMPT_LINT=OFF -DPREEMPT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ARM64_BUILD) -j $(JOBS)

run: build
	@$(BUILD)/preempt demo
	@echo; echo "== kernel code on the machine: examples/kernel/pkdev_driver.c in every model"
	@$(BUILD)/example_kernel_pkdev && $(BUILD)/example_kernel_pkdev_rt

# The normal build also builds the benchmarks, the lint tests and the
# ucontext port's subset; the other builds leave those out (they would
# only repeat them).
# Every test twice: the normal build (plus the ucontext port's subset),
# then ASan+UBSan; once more with the debug checks compiled out, so the
# build option stays honest; and once on arm64, under qemu-user.  A test
# that skips shows as "Skipped" in ctest's summary, never as passed.
# Last, the ci subset of the mutants: the tests must still fail when the
# code is wrong (docs/testing.md).
test: build asan nodebug arm64
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(NODEBUG_BUILD) && ctest --output-on-failure -j $(JOBS)
	@cd $(ARM64_BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory mutants MUTANTS_SUBSET=ci

# The safe-point rule for a minute per model, linked three ways
# (libpreempt.so, libpreempt.a, -static): SOAK_SECONDS per model.
SOAK_SECONDS ?= 60
soak: build
	@for t in soak_libc soak_libc_a soak_libc_static; do \
		echo "== $$t"; $(BUILD)/tests/$$t $(SOAK_SECONDS) || exit 1; \
	done

# The rcutorture-style test (tests/rcu/test_rcu_torture.c), long: RCU in
# every model and SRCU in three, TORTURE_SECONDS each (8 runs: ~10 min).
TORTURE_SECONDS ?= 75
# On a terminal, scripts/progress.py keeps a one-line status (runs done,
# time elapsed); in a log its output is the test's alone.
torture: build
	@RCU_TORTURE_SECONDS=$(TORTURE_SECONDS) scripts/progress.py \
		--label "make torture" --count 'End of test' --total 8 \
		-- $(BUILD)/tests/test_rcu_torture

# Deliberate breakages (tests/mutants/mutants.txt), each applied alone to a
# scratch copy in build-mutants/; every one must make its tests fail.
# MUTANTS_SUBSET=TAG runs only the mutants tagged TAG (ci: make test's).
MUTANTS_SUBSET ?=
mutants: deps
	@scripts/mutants.sh $(if $(MUTANTS_SUBSET),-s $(MUTANTS_SUBSET))

# The command samples in docs/*.md, regenerated from the built tool
# (tests/CMakeLists.txt's docs/samples test checks them).
docs: build
	@scripts/doc-samples.sh $(BUILD)/preempt

# `preempt audit` over Linux 5.10 and 6.1 drivers/ from Debian's archive,
# scored against what upstream fixed between them (docs/audit.md).
# Opt-in: about ten minutes, not part of `make test`.
audit-linux: build
	@scripts/audit-linux.sh $(BUILD)

# Real kernel files from Debian's linux-source (installed if missing),
# compiled through the linux/ tree and run by behaviour tests in all five
# models (docs/kernel.md).  Opt-in: not part of `make test`.
# make kernel-check KERNEL_VERSION=6.1: the other Debian linux-source.
KERNEL_VERSION ?= 6.12
kernel-check: build
	@KERNEL_VERSION=$(KERNEL_VERSION) scripts/kernel-check.sh $(BUILD)

# The simulator on the whole catalogue, full budgets (docs/sim.md).
sim-check: build
	@cmake --build $(BUILD) -j$(JOBS) --target sim_catalogue preempt_tool >/dev/null
	@scripts/sim-check.sh --dir $(BUILD)/tests/sim --tool $(BUILD)/preempt

bench: deps
	@cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DPREEMPT_TESTS=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BENCH_BUILD) -j $(JOBS)
	@scripts/progress.py --label "make bench" --part '^== (.*) ==$$' \
		-- bench/run.sh $(BENCH_BUILD)

# GNU conventions: `make install PREFIX=/usr DESTDIR=/tmp/stage`.  The
# installed library is the default build's (debug checks on); add
# CMAKE_FLAGS=-DPREEMPT_DEBUG=OFF for the one without.  uninstall removes
# what the last install into that PREFIX and DESTDIR wrote.
install: deps
	@cmake -S . -B $(INSTALL_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DPREEMPT_TESTS=OFF -DPREEMPT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(INSTALL_BUILD) -j $(JOBS)
	@DESTDIR=$(DESTDIR) cmake --install $(INSTALL_BUILD)

uninstall:
	@test -f $(INSTALL_BUILD)/install_manifest.txt || { echo "uninstall: nothing installed from $(INSTALL_BUILD)" >&2; exit 2; }
	@scripts/uninstall.sh $(INSTALL_BUILD)/install_manifest.txt "$(DESTDIR)" "$(PREFIX)"

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(RELEASE_BUILD) $(ASAN_BUILD) $(NODEBUG_BUILD) $(ARM64_BUILD) $(BENCH_BUILD) $(INSTALL_BUILD) build-mutants build-kernel-check
