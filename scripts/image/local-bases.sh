#!/usr/bin/env bash
# Makes the two base images the Containerfile takes as build arguments from Debian packages, for a machine that
# reaches no container registry (CI here): mmdebstrap unpacks the packages from the Debian mirror apt already uses
# and `podman import` turns each tree into a local image.
#   BUILD base:   glibc, dash, coreutils: the build stage's shell; Bun comes from the build context's node_modules.
#   RUNTIME base: glibc and CA certificates, with no shell, like the default distroless base.
# Prints the two build arguments for `podman build`. Run as root.
set -euo pipefail
suite=${DEBIAN_SUITE:-bookworm}
build_tag=${BUILD_BASE_TAG:-localhost/vcs-base-build:$suite}
runtime_tag=${RUNTIME_BASE_TAG:-localhost/vcs-base-runtime:$suite}
# The host's own Debian sources when it has them (same mirror, security updates included), else Debian's default.
mirror=()
[ -f /etc/apt/sources.list.d/debian.sources ] && mirror=(/etc/apt/sources.list.d/debian.sources)
path_env='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

# mmdebstrap's extract variant unpacks the named packages and their dependencies, and runs no package script.
unpack() {
  mmdebstrap --quiet --mode=root --variant=extract --format=tar \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    "$@" "$suite" - "${mirror[@]}"
}

# What the packages' scripts would have done (the extract variant runs none), and what the distroless image has: the CA bundle, the users
# (root, and nonroot as 65532), and name lookup from /etc/hosts first.
runtime_hook='set -e
cat "$1"/usr/share/ca-certificates/mozilla/*.crt > "$1"/etc/ssl/certs/ca-certificates.crt
printf "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n" > "$1"/etc/passwd
printf "root:x:0:\nnonroot:x:65532:\n" > "$1"/etc/group
printf "hosts: files dns\n" > "$1"/etc/nsswitch.conf
mkdir -p "$1"/home/nonroot && chown 65532:65532 "$1"/home/nonroot
chmod 1777 "$1"/tmp'

unpack --include=libc6,dash,coreutils | podman import --quiet --change "$path_env" - "$build_tag" >/dev/null &
build_pid=$!
unpack --include=libc6,ca-certificates --extract-hook="$runtime_hook" |
  podman import --quiet --change "$path_env" --change 'USER 65532:65532' - "$runtime_tag" >/dev/null
wait "$build_pid"
echo "--build-arg=BUILD_IMAGE=$build_tag --build-arg=RUNTIME_IMAGE=$runtime_tag"
