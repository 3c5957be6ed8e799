#!/bin/sh
# One online backup (`hearth backup`, SQLite's backup API: consistent while serving) into
# $HEARTH_BACKUP_DIR, then keep only the newest $HEARTH_BACKUP_KEEP. Run by hearth-backup.service.
# A backup is written as .partial and renamed when complete, so a half-written file never counts.
set -eu
app="$(cd "$(dirname "$0")/.." && pwd)"
node="${HEARTH_NODE:-node}"
dir="${HEARTH_BACKUP_DIR:-/var/lib/hearth/backups}"
keep="${HEARTH_BACKUP_KEEP:-7}"
case "$keep" in '' | *[!0-9]* | 0) echo "backup.sh: HEARTH_BACKUP_KEEP must be a whole number ≥ 1, not '$keep'" >&2; exit 2 ;; esac
mkdir -p "$dir"
file="$dir/hearth-$(date -u +%Y%m%dT%H%M%S%NZ).db"
"$node" "$app/dist/src/cli.js" backup "$file.partial"
mv "$file.partial" "$file"
# Names sort by time; delete all but the newest $keep.
ls -1 "$dir" | grep -E '^hearth-[0-9T]+Z\.db$' | sort -r | tail -n +"$((keep + 1))" | while read -r old; do rm -f "$dir/$old"; done
echo "backup: $file ($(ls -1 "$dir" | grep -cE '^hearth-[0-9T]+Z\.db$') kept in $dir)"
