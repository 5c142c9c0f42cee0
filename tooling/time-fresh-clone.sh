#!/bin/bash
# Times the README's main command on a fresh clone, as a newcomer runs it: warm pnpm store, no turbo cache, an empty
# factkit cache folder. Usage: tooling/time-fresh-clone.sh [runs=3] [commit=HEAD]. Prints install / factkit-demo /
# build (turbo's own "Time:") / total per run. Run it on a quiet machine; clones go to a temp dir, removed after.
set -euo pipefail
runs=${1:-3}
commit=${2:-HEAD}
repo=$(cd "$(dirname "$0")/.." && pwd)
for n in $(seq 1 "$runs"); do
  dir=$(mktemp -d /tmp/factkit-fresh-XXXXXX)
  git clone -q "$repo" "$dir/repo" && git -C "$dir/repo" checkout -q "$commit"
  cd "$dir/repo"
  t0=$(date +%s.%N)
  env -u TURBO_CACHE_DIR -u FACTKIT_DATA TURBO_TELEMETRY_DISABLED=1 XDG_CACHE_HOME="$dir/cache" npx -y pnpm@10.34.8 install > "$dir/install.log" 2>&1
  t1=$(date +%s.%N)
  env -u TURBO_CACHE_DIR -u FACTKIT_DATA TURBO_TELEMETRY_DISABLED=1 XDG_CACHE_HOME="$dir/cache" npx -y pnpm@10.34.8 factkit-demo > "$dir/demo.log" 2>&1
  t2=$(date +%s.%N)
  build=$(grep -o 'Time: *[0-9.]*s' "$dir/demo.log" | head -1 | grep -o '[0-9.]*')
  printf 'run %d: install %.1f s, factkit-demo %.1f s (build %s s), total %.1f s\n' "$n" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$build" "$(echo "$t2 - $t0" | bc)"
  cd "$repo" && rm -rf "$dir"
done
