# The service as a container image: the compiled binary (`bun build --compile`) on a minimal base, run as a
# non-root user with no shell, its one writable place the /data volume. `npm run image` builds it; README, "Running".
#
# The bases are build arguments. The defaults are public images; a machine that reaches no container registry
# builds the same file on local bases (scripts/image/local-bases.sh makes them from Debian packages).
# BUILD_IMAGE needs a shell and Bun, or only a shell when the build context's node_modules holds a Bun for this
# platform (the one the tests ran). RUNTIME_IMAGE needs glibc and CA certificates, nothing more.
ARG BUILD_IMAGE=docker.io/oven/bun:1.4.5
ARG RUNTIME_IMAGE=gcr.io/distroless/base-debian12

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
# The build context carries the installed npm packages (`npm run image` installs them first), so the build
# itself downloads nothing.
COPY package.json package-lock.json bunfig.toml tsconfig.json ./
COPY node_modules/ node_modules/
COPY src/ src/
ENV PATH=/src/node_modules/.bin:$PATH
# The project's own Bun when it runs here (a context installed on another platform holds another one's): then
# `bun run build` takes the base image's.
RUN if ! bun --version >/dev/null 2>&1; then rm -f node_modules/.bin/bun node_modules/.bin/bunx; fi \
  && bun --version && bun run build && mkdir -p /out/data

FROM ${RUNTIME_IMAGE}
COPY --from=build /src/dist/video-chat-service /usr/local/bin/video-chat-service
# The one writable place: issued keys (KEYS_FILE) and what lives beside them. A new named volume is filled from
# the image, so it starts owned by the service's user.
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME /data
ENV KEYS_FILE=/data/api-keys.json \
    PORT=3000 \
    ADMIN_PORT=9100 \
    ADMIN_HOST=0.0.0.0
# A numeric user, so that a runtime can tell it is not root without reading /etc/passwd (runAsNonRoot).
USER 65532:65532
WORKDIR /data
# The public port only: `-P` must not publish the admin port (metrics); publish it when you mean to, on loopback
# (`-p 127.0.0.1:9100:9100`).
EXPOSE 3000
# The service finishes the requests in flight for up to SHUTDOWN_GRACE_MS (30 s) after SIGTERM, then exits 0:
# give the runtime's stop timeout more than that (podman stop -t 40, terminationGracePeriodSeconds: 40).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/video-chat-service"]
