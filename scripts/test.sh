#!/usr/bin/env bash
# Runs every test suite and ends with one line "N passed, N failed" (totals of all suites).
# Works on a fresh machine with Node.js and npm: it installs the npm packages, and, when
# run as root with apt, the Debian packages some suites need (redis-server, chromium).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
# No network look-ups by the Deno CLI itself (it would try, and a test proxy may see it).
export DENO_NO_UPDATE_CHECK=1

[ -x node_modules/.bin/bun ] || npm install --no-audit --no-fund || exit 1
bash scripts/install-system-deps.sh || echo "warning: could not install system packages; suites needing them will fail"

passed=0
failed=0
summary=""
# Failed tests with the lines bun printed just before each (their error), repeated at the
# end: CI shows only the tail of a long log. Bun's own list of failures at the end of a run
# is left out (it names them again, without errors).
failures=""
# Runs one suite, counting bun's "N pass" / "N fail" lines; a suite that prints no
# count (a crash, a type error) counts as one failure.
suite() {
  local name=$1; shift
  local started=$SECONDS
  local log; log=$(mktemp)
  echo "=== suite: $name"
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local p f
  p=$(grep -E '^\s*[0-9]+ pass$' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  f=$(grep -E '^\s*[0-9]+ fail$' "$log" | tail -1 | grep -oE '[0-9]+' || true)
  if [ -z "$p" ] && [ -z "$f" ]; then
    if [ "$status" -eq 0 ]; then p=1; f=0; else p=0; f=1; fi
  fi
  p=${p:-0}; f=${f:-0}
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p)); failed=$((failed + f))
  summary="$summary\n  $name: $p passed, $f failed, $((SECONDS - started)) s"
  local failed_names; failed_names=$(sed '/^[0-9]* tests\? failed:$/,$d' "$log" | grep -B12 -E '^\(fail\)' | cut -c1-300 | head -150 || true)
  [ -z "$failed_names" ] || failures="$failures"$'\n'"  [$name]"$'\n'"$failed_names"
  rm -f "$log"
}

# A suite may run beside the next one: `in_background NAME command...` starts it with its output kept apart, and
# `suite "..." finished NAME` waits for it, prints that output and ends with its status.
background_dir=$(mktemp -d)
in_background() {
  local name=$1; shift
  ("$@" >"$background_dir/$name.log" 2>&1; echo $? >"$background_dir/$name.status") &
}
finished() {
  while [ ! -f "$background_dir/$1.status" ]; do sleep 1; done
  cat "$background_dir/$1.log"
  return "$(cat "$background_dir/$1.status")"
}

# A Redis on a loopback port for the suites that test shared state.
source scripts/test-redis.sh
start_test_redis

suite "lint (deno fmt --check, deno lint)" npm run -s lint
suite "typecheck (bun)" tsc --noEmit -p .
# Two files at a time (bun's worker processes, each file in its own): most of the time an end-to-end file waits on
# timers and on the processes it started, not on the machine's two cores. The files that bound the service's latency
# in milliseconds, or a fair share's wait against the provider's floor, run alone after them, one after the other,
# with no other test's processes on the cores.
alone=(tests/e2e/crafted-transcript.test.ts tests/e2e/llm-fair-share.test.ts)
ignored=(); for file in "${alone[@]}"; do ignored+=(--path-ignore-patterns="$file"); done
suite "unit, app and end-to-end (bun run server, two files at a time)" \
  bun test --parallel=2 --timeout 60000 "${ignored[@]}" tests/
suite "end-to-end bounding latency and fair waits (bun run server, alone)" \
  bun test --timeout 60000 "${alone[@]/#/./}"

# The end-to-end files where the runtime makes a difference, against the other two ways to run the
# service: the compiled binary, copied alone into an empty directory and run from there, and Deno.
# tests/e2e/runtime-sensitive.txt lists them, each with why (docs/development.md has the rule); the
# rest of tests/e2e/ is logic over HTTP, which Bun's run above covers for all three.
# @param $1 binary or deno; prints the listed files that run on it
runtime_sensitive() {
  awk -v target="$1" '!/^[[:space:]]*(#|$)/ && index("," $2 ",", "," target ",") { print "./tests/e2e/" $1 }' \
    tests/e2e/runtime-sensitive.txt
}
suite "typecheck (deno)" env NO_COLOR=1 deno check src/
binary_dir=$(mktemp -d)
suite "build (compiled binary)" sh -c "bun run build && cp dist/video-chat-service '$binary_dir/'"
# The two run side by side (their processes mostly wait), and the binary's output comes after Deno's.
in_background binary env E2E_TARGET=binary E2E_BINARY="$binary_dir/video-chat-service" \
  bun test --timeout 60000 $(runtime_sensitive binary)
suite "end-to-end, runtime-sensitive files (deno task server)" \
  env E2E_TARGET=deno bun test --timeout 60000 $(runtime_sensitive deno)
suite "end-to-end, runtime-sensitive files (compiled binary, alone in a temporary directory; beside Deno's)" \
  finished binary
# The container image, built on local Debian bases and run with podman against the fakes (scripts/image/test.sh),
# starts beside the soak: the soak's traffic comes at a set rate for a set time, so it takes no longer for sharing
# the machine, and the image's bases and build fill that time. Its output comes after the soak's.
in_background image bash scripts/image/test.sh
# A short soak against the binary: steady mixed traffic, fails on any 500, hang or growing RSS.
suite "soak (compiled binary, ${SOAK_SECONDS:-45} s)" env E2E_BINARY="$binary_dir/video-chat-service" SOAK_SECONDS="${SOAK_SECONDS:-45}" bun tests/soak/soak.run.ts
rm -rf "$binary_dir"
suite "container image (podman; its time here is what is left after the soak)" finished image
rm -rf "$background_dir"

stop_test_redis
[ -z "$failures" ] || printf "failed tests:%s\n" "$failures"
printf "suites:$summary\n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
