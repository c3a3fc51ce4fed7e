# Sourced by test.sh: starts a throw-away redis-server on a loopback port and
# exports TEST_REDIS_URL (and TEST_REDIS_PORT) for the suites that need it.
# The port is a free one picked at random unless TEST_REDIS_PORT names one: two checkouts testing at once on one
# machine must not share a Redis (the first to finish would stop the other's).
start_test_redis() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "warning: redis-server not found; Redis suites will fail"
    return 0
  fi
  TEST_REDIS_DIR=$(mktemp -d)
  local port=${TEST_REDIS_PORT:-}
  for _ in $(seq 20); do
    [ -n "$port" ] || port=$((20000 + RANDOM % 12000)) # below the ephemeral ports
    # A port something already answers on is taken: another one (unless it was asked for).
    if ! redis-cli -p "$port" ping >/dev/null 2>&1 &&
      redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --dir "$TEST_REDIS_DIR" --daemonize yes --pidfile "$TEST_REDIS_DIR/redis.pid" >/dev/null; then
      break
    fi
    [ -z "${TEST_REDIS_PORT:-}" ] || break
    port=""
  done
  TEST_REDIS_PORT=$port
  for _ in $(seq 50); do redis-cli -p "$TEST_REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  export TEST_REDIS_URL="redis://127.0.0.1:$TEST_REDIS_PORT"
  export TEST_REDIS_PORT
}
stop_test_redis() {
  [ -n "${TEST_REDIS_DIR:-}" ] || return 0
  # Only the server this run started: its pid file says which.
  [ -f "$TEST_REDIS_DIR/redis.pid" ] && kill "$(cat "$TEST_REDIS_DIR/redis.pid")" 2>/dev/null
  rm -rf "$TEST_REDIS_DIR"
}
