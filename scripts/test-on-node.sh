#!/usr/bin/env bash
# Runs `npm test` under another Node.js major (22, 24, …) in this checkout, then puts everything back.
#
#   scripts/test-on-node.sh 22 [vitest args…]
#
# The Node binary and its headers come from npm (the `node-<platform>-<arch>` package that `npx node@N`
# also uses), so nothing is fetched outside the npm registry. better-sqlite3 is a native addon built
# for one ABI: it is compiled once per (better-sqlite3 version, ABI) against that Node's own headers
# (node-gyp --nodedir, from source: prebuilt binaries would come from GitHub), cached under
# $HEARTH_NODE_CACHE, swapped in for the run and swapped back afterwards, so the checkout's Node
# keeps working whatever happens. sqlite-vec is a loadable SQLite extension, not a Node addon, so it
# needs nothing. The last line printed is the suite's own `N passed, N failed`; exit status is the suite's.
set -euo pipefail
major="${1:?usage: test-on-node.sh <node major> [vitest args…]}"
shift
cd "$(dirname "$0")/.."
cache="${HEARTH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth-node}"
plat="$(node -p 'process.platform + "-" + process.arch')"
pkg="node-$plat"
nodedir="$cache/node$major/node_modules/$pkg"
if [ ! -x "$nodedir/bin/node" ]; then
  echo "test-on-node: fetching $pkg@$major from npm"
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$cache/node$major" "$pkg@$major" >/dev/null
fi
export PATH="$nodedir/bin:$PATH"
abi="$(node -p process.versions.modules)"
bs3="node_modules/better-sqlite3"
bs3v="$(node -p "require('./$bs3/package.json').version")"
addon="$bs3/build/Release/better_sqlite3.node"
built="$cache/better-sqlite3-$bs3v-abi$abi-$plat.node"
if [ ! -f "$built" ]; then
  echo "test-on-node: building better-sqlite3 $bs3v for Node $(node --version) (ABI $abi)"
  work="$(mktemp -d)"
  cp -a "$bs3/." "$work/"
  rm -rf "$work/build"
  gyp="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  (cd "$work" && node "$gyp" rebuild --release --nodedir="$nodedir" -j "$(nproc 2>/dev/null || echo 2)" >"$work.log" 2>&1) || {
    tail -20 "$work.log"; rm -rf "$work"; echo "0 passed, 1 failed"; exit 1; }
  cp "$work/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
  rm -rf "$work" "$work.log"
fi
# Swapped by rename, never rewritten in place: a process that has the addon mapped (a bench, a
# server started from this checkout) keeps its copy instead of dying of SIGBUS.
# Modes are kept (cp -p): mktemp's file is 0600, and an addon restored so could not be loaded by the
# tests that run the hub as another user.
swap() { cp -p "$1" "$addon.swap" && mv -f "$addon.swap" "$addon"; }
saved="$(mktemp)"
cp -p "$addon" "$saved"
trap 'swap "$saved"; rm -f "$saved"' EXIT
swap "$built"
echo "test-on-node: Node $(node --version) (ABI $abi)"
node scripts/test.mjs "$@"
