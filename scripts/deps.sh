#!/usr/bin/env bash
# Install the Debian packages the build and tests need, only those missing.
# Usage: scripts/deps.sh [extra-package...]
set -euo pipefail

pkgs=(build-essential cmake pkg-config libcmocka-dev libdw-dev valgrind
      cppcheck clang-format binutils python3
      # `preempt audit` reads C through Coccinelle
      coccinelle
      # bench/switch_bench.c: Boost.Context beside our switch (issue 19)
      g++ libboost-context-dev
      # bench/rcu_bench.c runs beside liburcu (urcu-memb, urcu-qsbr)
      liburcu-dev
      # man pages (scdoc) and their check (man --warnings)
      scdoc man-db groff-base
      # the Debian package's build and check (tests/packaging/deb_check.sh)
      dpkg-dev debhelper lintian
      # tests/tools/test_cyclictest.c compares with rt-tests' cyclictest;
      # `preempt latency --plot` draws with gnuplot (make run installs it)
      rt-tests gnuplot-nox
      # bench/latency_run.sh: the host scheduler's profile (perf sched)
      linux-perf
      # tests/tools/sarif_check.py --schema validates `preempt audit
      # --sarif` against the official schema (scripts/sarif-schema.sh)
      python3-jsonschema
      # the arm64 build (make arm64): cross compiler, arm64 libraries
      # (Debian multiarch), and qemu-user to run its tests
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
      libcmocka-dev:arm64 libdw-dev:arm64 "$@")

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps: adding the arm64 architecture (multiarch)" >&2
	$sudo dpkg --add-architecture arm64
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
"$(dirname "$0")/sarif-schema.sh"
