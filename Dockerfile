# The service as one image: `docker build -t event-media .`, then see compose.yaml and docs/deploy.md.
# The base is an argument so the image builds where no registry is reachable (scripts/container-base.sh
# makes a stand-in from Debian's packages). It must be glibc (Debian), not Alpine: the prebuilt sharp
# and libSQL binaries traced into .output are glibc builds.
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
# Where the npm registry is reached through a TLS-inspecting proxy: its CA bundle, mounted for the
# build only (scripts/container-check.sh passes the host's); unset otherwise.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
# The locked packages first, in a layer of their own that source edits do not invalidate. Install
# scripts wait for the source: the root's postinstall (`nuxt prepare`) needs it, and the native
# packages (sharp, libSQL, esbuild) come as prebuilt optional packages that need no script to run.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM ${BASE} AS runtime
# With ffmpeg (`--build-arg WITH_FFMPEG=1`) the server makes the H.264 display copies of HEVC, VP9
# and AV1 videos itself (docs/api.md, "Display copies"); without it, the guest's phone makes them
# where its browser can, and a video that needs a copy and has none is shown by its poster.
ARG WITH_FFMPEG=0
RUN if [ "$WITH_FFMPEG" = 1 ]; then \
      apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*; \
    fi
# The server runs unprivileged and may write only to /data; its code stays root's and read-only.
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /data --no-create-home --shell /usr/sbin/nologin app \
 && mkdir -p /data/media && chown -R app:app /data
WORKDIR /app
COPY --from=build /app/.output ./.output
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/event.db \
    MEDIA_DIR=/data/media
USER app
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", ".output/server/index.mjs"]
