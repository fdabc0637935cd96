#!/usr/bin/env bash
# Fetch the official SARIF 2.1.0 JSON schema for tests/tools/sarif_check.py.
# The OASIS schema travels in Microsoft's MIT-licensed npm package
# @microsoft/jest-sarif; we take that tarball from the npm registry (the
# one network besides Debian's archive here), check it against the
# registry's published SHA-1, and keep only the schema, in .cache/ (not in
# git). Offline, it says so and exits 0: the schema test then reports a skip.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.cache/sarif-schema-2.1.0.json"
url="https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz"
sha1="bf817c5931635bd90274c4eb20aad7db1ac17601"
member="package/lib/schemas/sarif-2.1.0-rtm.5.json"

[ -s "$out" ] && exit 0
mkdir -p "$root/.cache"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if ! python3 - "$url" "$tmp/pkg.tgz" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    open(sys.argv[2], "wb").write(r.read())
PY
then
	echo "deps: the SARIF schema could not be fetched (offline?);" \
	     "tools/sarif_schema will be skipped" >&2
	exit 0
fi
if [ "$(sha1sum "$tmp/pkg.tgz" | cut -d' ' -f1)" != "$sha1" ]; then
	echo "deps: the SARIF schema package's checksum does not match;" \
	     "not used" >&2
	exit 0
fi
tar -xzf "$tmp/pkg.tgz" -C "$tmp" "$member" && mv "$tmp/$member" "$out"
