#!/usr/bin/env bash
# The image suite of scripts/test.sh: makes the local Debian bases (no container registry is reachable), builds the
# Containerfile on them with podman as `npm run image` does, and runs tests/image/image.podman.ts against the image.
# Prints bun's "N pass" / "N fail" lines, then how long each step took and the image's size. Needs root, podman,
# runc and mmdebstrap (scripts/install-system-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
export CONTAINERS_CONF="$PWD/scripts/image/containers.conf"
export CONTAINERS_STORAGE_CONF="$PWD/scripts/image/storage.conf"
export IMAGE_UNDER_TEST=${IMAGE_UNDER_TEST:-localhost/video-chat-service:test}
for tool in podman runc mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-system-deps.sh installs it (as root)"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "the image suite runs podman as root"; exit 1; }

started=$SECONDS
# A clean slate: the previous run's images, containers and volumes (all in the suite's own storage) go first.
# What this run makes stays until the next one, for a look after a failure.
podman rm --all --force >/dev/null
podman volume prune --force >/dev/null
podman rmi --all --force >/dev/null
# No container outlives the suite, even when the test process is killed (they all live in the suite's storage).
trap 'podman rm --all --force --time 0 >/dev/null 2>&1 || true' EXIT
# Both bases are made once per run, and the build's stages are cached within it.
bases=$(bash scripts/image/local-bases.sh)
bases_done=$SECONDS
# shellcheck disable=SC2086 # two --build-arg words
IMAGE_TAG=$IMAGE_UNDER_TEST bash scripts/image/build.sh --quiet $bases >/dev/null
built=$SECONDS
status=0
bun test --timeout 60000 ./tests/image/image.podman.ts || status=$?
size=$(podman image inspect --format '{{.Size}}' "$IMAGE_UNDER_TEST")
echo "image suite: bases $((bases_done - started)) s, build $((built - bases_done)) s, tests $((SECONDS - built)) s," \
  "in all $((SECONDS - started)) s; image $IMAGE_UNDER_TEST $((size / 1000000)) MB"
exit "$status"
