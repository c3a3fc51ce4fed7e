#!/usr/bin/env bash
# `npm run image`: builds the Containerfile into video-chat-service:latest with podman, else docker.
# Extra arguments go to the build (e.g. --build-arg RUNTIME_IMAGE=...); IMAGE_TAG names another tag.
# The build context must hold the installed npm packages (the build downloads nothing): they are installed first
# when missing. A node_modules that is a symlink (a shared install) is followed into a staged context of hard links,
# since a build copies a symlink as it is.
set -euo pipefail
cd "$(dirname "$0")/../.."
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || { echo "npm run image needs podman or docker" >&2; exit 1; }
[ -x node_modules/.bin/bun ] || npm install --no-audit --no-fund
context=.
if [ -L node_modules ]; then
  context=$(mktemp -d)
  trap 'rm -rf "$context"' EXIT
  cp -R --link package.json package-lock.json bunfig.toml tsconfig.json src Containerfile .containerignore "$context/" 2>/dev/null ||
    cp -R package.json package-lock.json bunfig.toml tsconfig.json src Containerfile .containerignore "$context/"
  cp -R --link --dereference node_modules/ "$context/node_modules" 2>/dev/null ||
    cp -R --dereference node_modules/ "$context/node_modules"
fi
"$engine" build --file Containerfile --tag "${IMAGE_TAG:-video-chat-service:latest}" "$@" "$context"
