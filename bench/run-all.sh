#!/usr/bin/env bash
# Runs every benchmark once, one after another (never in parallel: they measure
# time and memory), then the soak. Each is bounded and loopback only. A missing
# or failing benchmark is reported and the rest still run; the exit status is
# non-zero when any failed. Every bench/*.ts is a benchmark and is picked up.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

# Known order first (cheapest first); the free-plan benches wait out real one-minute provider
# windows, so they come last. Every other bench/*.ts runs in between. bench/support/ holds helpers.
ORDER=(youtube-cold-path long-video startup-throughput load-overload)
LAST=(free-tier whole-video mixed-free-tier)

failed=()
run() {
  local name=$1; shift
  echo
  echo "=== bench: $name ($(date -u +%FT%TZ))"
  local started=$SECONDS
  "$@"
  local status=$?
  echo "=== bench: $name exit $status after $((SECONDS - started)) s"
  [ "$status" -eq 0 ] || failed+=("$name")
}
run_named() {
  if [ -f "bench/$1.ts" ]; then run "$1" bun "bench/$1.ts"; else echo; echo "=== bench: $1 missing (bench/$1.ts not found), skipped"; fi
}

seen=" ${ORDER[*]} ${LAST[*]} "
for name in "${ORDER[@]}"; do run_named "$name"; done
for file in bench/*.ts; do
  name=$(basename "$file" .ts)
  [[ "$seen" == *" $name "* ]] || run "$name" bun "$file"
done
for name in "${LAST[@]}"; do run_named "$name"; done
run soak bun tests/soak/soak.run.ts

echo
if [ ${#failed[@]} -eq 0 ]; then echo "benchmarks: all passed"; else echo "benchmarks: failed: ${failed[*]}"; exit 1; fi
