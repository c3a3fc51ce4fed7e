#!/usr/bin/env bash
# Installs the Debian packages the test suites need, when missing and when we may.
set -euo pipefail
needed=()
command -v redis-server >/dev/null 2>&1 || needed+=(redis-server)
[ -x /usr/bin/chromium ] || needed+=(chromium)
# promtool validates the /metrics exposition (tests/app/metrics, tests/e2e/ops-metrics).
command -v promtool >/dev/null 2>&1 || needed+=(prometheus)
# ffprobe checks that each audio piece cut for speech-to-text decodes on its own (tests/e2e/speech*).
command -v ffprobe >/dev/null 2>&1 || needed+=(ffmpeg)
# The image suite (scripts/image/test.sh) builds and runs the container image with podman on runc, on bases that
# mmdebstrap makes from Debian packages.
command -v podman >/dev/null 2>&1 || needed+=(podman)
command -v runc >/dev/null 2>&1 || needed+=(runc)
command -v mmdebstrap >/dev/null 2>&1 || needed+=(mmdebstrap)
[ ${#needed[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing ${needed[*]}: install them with your package manager (Debian: apt-get install ${needed[*]})"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
