#!/usr/bin/env bash
# Install the Debian packages the build and tests need, only those missing.
# Usage: scripts/deps.sh [extra-package...]
set -euo pipefail

pkgs=(build-essential cmake pkg-config libcmocka-dev libdw-dev valgrind
      cppcheck clang-format binutils "$@")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
