#!/bin/sh
# Installs Hearth as a systemd service on Raspberry Pi OS / Debian, from a release tarball
# (scripts/release.mjs; no compiler, no dev dependencies) or from a built checkout:
#
#   tar xzf hearth-0.1.0.tgz package/deploy && sudo package/deploy/install.sh --release hearth-0.1.0.tgz
#   sudo git clone <hearth> /opt/hearth && cd /opt/hearth && sudo npm ci && sudo deploy/install.sh
#
# Idempotent: every file is compared with what it would write and only changed files are touched;
# /etc/hearth/config.toml is written once and then left to you. Each step prints one line:
# `create`, `update`, `keep` (exists, left alone), `ok` (already as wanted) — prefixed `would` with --dry-run.
#
#   --release FILE unpack this release tarball into the app dir (default /opt/hearth) and run
#                  `npm install --omit=dev` there (ONNXRUNTIME_NODE_INSTALL=skip; other platforms'
#                  binaries pruned); again with the same file: nothing to do
#   --prefix DIR   install under DIR instead of / (tests): no user is created, nothing is chowned,
#                  systemctl is not called; every path printed is the one written, DIR included
#   --dry-run      say what would change, change nothing
#   --app-dir DIR  the code the service runs (default: the checkout this script is in; with
#                  --release, /opt/hearth)
#   --user NAME    service account (default hearth)

set -eu

prefix=""
dry=0
app=""
release=""
user="hearth"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --dry-run) dry=1; shift ;;
    --app-dir) app="${2:?--app-dir needs a directory}"; shift 2 ;;
    --release) release="${2:?--release needs a hearth-<version>.tgz}"; shift 2 ;;
    --user) user="${2:?--user needs a name}"; shift 2 ;;
    -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0" | sed '/^#!/d'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
prefix="${prefix%/}"
die() { echo "install.sh: $*" >&2; exit 1; }
if [ -n "$release" ]; then
  [ -f "$release" ] || die "$release: no such file (make one with: node scripts/release.mjs)"
  release="$(cd "$(dirname "$release")" && pwd -P)/$(basename "$release")"
  [ -n "$app" ] || app=/opt/hearth
  case "$app" in /*) ;; *) die "--app-dir must be an absolute path with --release, not $app" ;; esac
else
  # pwd -P: a symlinked checkout is judged by where it really is (a link into /home is still /home).
  [ -n "$app" ] || app="$(cd "$(dirname "$0")/.." && pwd -P)"
fi
app="${app%/}"
say() { # create/update/enable/run/unpack are changes: "would …" with --dry-run
  case "$*" in create* | update* | enable* | run* | unpack*) [ "$dry" = 0 ] || set -- would "$@" ;; esac
  echo "$*"
}

# --- checks, each failing with one line and the fix ---
node="$(command -v node || true)"
[ -n "$node" ] || die "Node.js not found; install Node.js 22 or 24 (e.g. sudo apt-get install nodejs, or NodeSource), then re-run"
node="$(readlink -f "$node")"
major="$("$node" -p 'process.versions.node.split(".")[0]')"
[ "$major" -ge 20 ] 2>/dev/null || die "Node.js $("$node" --version) is too old; Hearth needs 20, 22 or 24 (22 or 24 recommended)"
[ "$major" -ge 22 ] || echo "note: Node.js $("$node" --version) has reached end of life; Hearth runs on it, but prefer 22 or 24"
case "$app/" in
  /home/* | /root/* | /run/user/*) die "$app is in a home directory, which the service cannot see (ProtectHome=true); clone to /opt/hearth instead" ;;
  # The unit's PrivateTmp=true gives the service an empty /tmp and /var/tmp of its own: code there is
  # invisible to it (and /tmp is often cleared at boot). Installing from there is allowed (a test, a
  # look) but will not start.
  /tmp/* | /var/tmp/* | /dev/shm/*) echo "warning: $app is in /tmp, /var/tmp or /dev/shm, which the service cannot see (PrivateTmp=true, PrivateDevices=true): it would not start; put the code in /opt/hearth (--release FILE, or git clone to /opt/hearth)" >&2 ;;
esac
if [ -n "$release" ]; then
  # The templates (units, config) come from the release itself, whatever is in $app today.
  src="$(mktemp -d)"
  trap 'rm -rf "$src"' EXIT
  tar -xzf "$release" -C "$src" || die "$release: not a readable .tgz"
  src="$src/package"
  [ -f "$src/dist/src/cli.js" ] || die "$release is not a Hearth release (no package/dist/src/cli.js); make one with: node scripts/release.mjs"
else
  src="$app"
  [ -f "$app/dist/src/cli.js" ] || die "$app/dist/src/cli.js is missing; run 'npm ci' in $app first (it builds), then re-run"
fi
if [ -z "$prefix" ] && [ "$(id -u)" -ne 0 ] && [ "$dry" = 0 ]; then die "run as root (sudo $0), or try --dry-run"; fi

# --- helpers ---
# put FILE MODE: installs stdin as $prefix/FILE if different (content or mode).
put() {
  dest="$prefix$1"
  tmp="$(mktemp)"
  cat >"$tmp"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest" && [ "$(stat -c %a "$dest")" = "$2" ]; then
    rm -f "$tmp"; say "ok $dest"; return 1
  fi
  if [ -f "$dest" ]; then verb=update; else verb=create; fi
  if [ "$dry" = 0 ]; then
    mkdir -p "$(dirname "$dest")"
    chmod "$2" "$tmp"
    mv "$tmp" "$dest"
  else
    rm -f "$tmp"
  fi
  say "$verb $dest"
  return 0
}
dir() { # dir PATH MODE [OWNER]
  dest="$prefix$1"
  if [ -d "$dest" ] && [ "$(stat -c %a "$dest")" = "$2" ]; then say "ok $dest/"; else
    if [ -d "$dest" ]; then verb=update; else verb=create; fi
    [ "$dry" = 1 ] || { mkdir -p "$dest"; chmod "$2" "$dest"; }
    say "$verb $dest/"
  fi
  if [ -n "${3:-}" ] && [ -z "$prefix" ] && [ "$dry" = 0 ]; then chown "$3" "$dest"; fi
}
render() { # a unit with this machine's paths; comments keep the template's words (they explain the rewrite)
  sed -e "/^#/!s#/opt/hearth#$app#g" -e "/^#/!s#/usr/bin/node#$node#g" -e "s#^User=hearth#User=$user#" -e "s#^Group=hearth#Group=$user#" "$src/deploy/$1"
}

# --- the code, from a release ---
if [ -n "$release" ]; then
  sum="$(sha256sum "$release" | cut -d' ' -f1)"
  if [ -f "$prefix$app/.hearth-release" ] && [ "$(cat "$prefix$app/.hearth-release")" = "$sum" ] && [ -f "$prefix$app/dist/src/cli.js" ]; then
    say "ok $prefix$app ($(basename "$release") is installed)"
  else
    if [ "$dry" = 0 ]; then
      mkdir -p "$prefix$app"
      # An upgrade: the old build goes, node_modules stays (npm install updates it in place).
      rm -rf "$prefix$app/dist" "$prefix$app/.hearth-release"
      tar -xzf "$release" -C "$prefix$app" --strip-components=1 --no-same-owner
    fi
    say "unpack $(basename "$release") into $prefix$app"
    [ "$dry" = 1 ] || (cd "$prefix$app" && ONNXRUNTIME_NODE_INSTALL=skip ${HEARTH_NPM:-npm} install --omit=dev --no-audit --no-fund --loglevel=error)
    say "run npm install --omit=dev in $prefix$app"
    [ "$dry" = 1 ] || echo "$sum" >"$prefix$app/.hearth-release"
  fi
fi

# --- the service account ---
if [ -n "$prefix" ]; then
  say "skip user $user (--prefix)"
elif id "$user" >/dev/null 2>&1; then
  say "ok user $user"
else
  [ "$dry" = 1 ] || useradd --system --user-group --home-dir /var/lib/hearth --no-create-home --shell /usr/sbin/nologin "$user"
  say "create user $user"
fi

# --- directories and config ---
dir /etc/hearth 750 "root:$user"
dir /var/lib/hearth 750 "$user:$user"
if [ -f "$prefix/etc/hearth/config.toml" ]; then
  say "keep $prefix/etc/hearth/config.toml"
else
  token="$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
  sed -e "s#@TOKEN@#$token#" -e "s#/opt/hearth/config.example.toml#$app/config.example.toml#" "$src/deploy/config.toml" | put /etc/hearth/config.toml 640 || true
  if [ -z "$prefix" ] && [ "$dry" = 0 ]; then chown "root:$user" /etc/hearth/config.toml; fi
fi

# --- the command, for people and MCP clients (`hearth mcp` finds /etc/hearth/config.toml) ---
printf '#!/bin/sh\nexec %s %s/dist/src/cli.js "$@"\n' "$node" "$app" | put /usr/local/bin/hearth 755 || true

# --- units ---
changed=0
for unit in hearth.service hearth-backup.service hearth-backup.timer; do
  if render "$unit" | put "/etc/systemd/system/$unit" 644; then changed=1; fi
done
if [ -n "$prefix" ]; then
  say "skip systemctl (--prefix)"
elif [ "$dry" = 1 ]; then
  say "run systemctl enable hearth.service hearth-backup.timer"
else
  [ "$changed" = 0 ] || systemctl daemon-reload
  for u in hearth.service hearth-backup.timer; do
    if systemctl is-enabled --quiet "$u" 2>/dev/null; then say "ok enabled $u"; else systemctl enable --quiet "$u"; say "enable $u"; fi
  done
fi

[ "$dry" = 1 ] && exit 0
cat <<EOF

Next: look at /etc/hearth/config.toml (its http.token is what clients send), then
  sudo systemctl start hearth && journalctl -u hearth -f
  curl -s localhost:8900/health
EOF
if [ -z "$prefix" ] && [ "$changed" = 1 ] && systemctl is-active --quiet hearth.service 2>/dev/null; then
  echo "  (hearth is running with the old unit: sudo systemctl restart hearth)"
fi
