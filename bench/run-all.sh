#!/usr/bin/env bash
# Runs every benchmark once, one after another (never in parallel: they measure
# time and memory), then the soak. Each is bounded and loopback only. A missing
# or failing benchmark is reported and the rest still run; the exit status is
# non-zero when any failed. Extra benchmarks named bench/*.ts are picked up.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

# Known order first (cheapest first; free-tier waits out a real one-minute provider
# window, about 3.5 minutes, so it comes last); the SKIP files are helpers, not benchmarks.
ORDER=(youtube-cold-path long-video startup-throughput load-overload free-tier)
SKIP=(load-http-connection startup-measure startup-bare-server breakdown-server cached-load)

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

seen=" "
for name in "${ORDER[@]}"; do
  seen="$seen$name "
  if [ -f "bench/$name.ts" ]; then run "$name" bun "bench/$name.ts"; else echo; echo "=== bench: $name missing (bench/$name.ts not found), skipped"; fi
done
for file in bench/*.ts; do
  name=$(basename "$file" .ts)
  [[ "$seen" == *" $name "* || " ${SKIP[*]} " == *" $name "* ]] && continue
  run "$name" bun "$file"
done
run soak bun tests/soak/soak.run.ts

echo
if [ ${#failed[@]} -eq 0 ]; then echo "benchmarks: all passed"; else echo "benchmarks: failed: ${failed[*]}"; exit 1; fi
