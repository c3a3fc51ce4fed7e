# Sourced by test.sh: starts a throw-away redis-server on a loopback port and
# exports TEST_REDIS_URL (and TEST_REDIS_PORT) for the suites that need it.
TEST_REDIS_PORT=${TEST_REDIS_PORT:-6391}
start_test_redis() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "warning: redis-server not found; Redis suites will fail"
    return 0
  fi
  TEST_REDIS_DIR=$(mktemp -d)
  redis-server --port "$TEST_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$TEST_REDIS_DIR" --daemonize yes --pidfile "$TEST_REDIS_DIR/redis.pid" >/dev/null
  for _ in $(seq 50); do redis-cli -p "$TEST_REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  export TEST_REDIS_URL="redis://127.0.0.1:$TEST_REDIS_PORT"
  export TEST_REDIS_PORT
}
stop_test_redis() {
  [ -n "${TEST_REDIS_DIR:-}" ] || return 0
  redis-cli -p "$TEST_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$TEST_REDIS_DIR"
}
