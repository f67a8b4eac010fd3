#!/usr/bin/env bash
# Packs the raw files of older device results into one archive per folder: bench/results/NAME/raw.tar.xz
# (paths relative to NAME/) holds everything of NAME/ but its summary.json files, notes (*.md) and charts
# (*.svg), which stay as they are, so that every folder the docs cite still has its summary, command and
# figures. Why: what travels to a device call (the tracked tree plus the carry) is limited to 64 MiB, and
# session 40 found the tree's ~5,700 small result files left no room for Deno (31 MB xz) beside one build.
# Unpack one with: tar -C bench/results/NAME -xJf bench/results/NAME/raw.tar.xz
# Usage: scripts/archive_results.sh NAME...   (folders under bench/results/; stages the change with git)
set -euo pipefail
cd "$(dirname "$0")/.."
for name in "$@"; do
  d=bench/results/$name
  [ -d "$d" ] || { echo "no folder $d" >&2; exit 1; }
  [ -e "$d/raw.tar.xz" ] && { echo "$d already has raw.tar.xz" >&2; exit 1; }
  list=$(mktemp)
  git ls-files -- "$d" | grep -vE '(^|/)summary\.json$|\.md$|\.svg$' | sed "s|^$d/||" > "$list" || true
  if [ -s "$list" ]; then
    tar -C "$d" --owner=0 --group=0 --numeric-owner --mtime=2026-12-05 --sort=name -cf - -T "$list" |
      xz -T2 -9 > "$d/raw.tar.xz"
    # The archive must hold every listed file, byte for byte, before the files go.
    tmp=$(mktemp -d)
    tar -C "$tmp" -xJf "$d/raw.tar.xz"
    while IFS= read -r f; do cmp -s "$d/$f" "$tmp/$f" || { echo "archive of $d differs at $f" >&2; exit 1; }; done < "$list"
    rm -rf "$tmp"
    sed "s|^|$d/|" "$list" | git rm -q --pathspec-from-file=-
    git add "$d/raw.tar.xz"
    echo "$d: $(wc -l < "$list") files -> raw.tar.xz ($(stat -c %s "$d/raw.tar.xz") bytes)"
  fi
  rm -f "$list"
done
