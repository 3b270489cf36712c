#!/usr/bin/env bash
# The container image shown working: build it with podman, run it on a fresh volume, check
# /api/health and a guest's upload round trip, restart the container and find the data again.
# Prints `container ok` at the end. Run by .ci/run when CONTAINER_CHECK=1 (too slow for npm test).
#
#   BASE=node:20-bookworm-slim scripts/container-check.sh   where a registry is reachable
#   scripts/container-check.sh                              elsewhere: a Debian base made here (container-base.sh)
#
# Podman as Debian ships it, with what these machines need: runc (crun fails on their cgroups) and
# without rlimits in the spec (runc-without-rlimits.sh),
# the cgroupfs manager (no systemd), the host's network for the build (npm ci) and the run, and the
# docker image format (the OCI format drops HEALTHCHECK).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
# Debian's podman and runc, and debootstrap for a base made here, installed where missing (as
# .ci/run installs Chromium): a new machine has none of them.
need=()
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
[ -n "${BASE:-}" ] || command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "container-check: needs ${need[*]}: apt-get install ${need[*]}" >&2
    exit 1
  fi
  echo "[container-check] installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# runc without the resource limits podman puts in the spec: runc-without-rlimits.sh says why.
runtime=$PWD/scripts/runc-without-rlimits.sh
podman=(podman --cgroup-manager cgroupfs --runtime "$runtime")
image=localhost/event-media:check
name=event-media-check-$$
volume=event-media-check-$$
state=$(mktemp)
# One secret for both containers, as a deployment keeps its own across restarts.
secret=container-check-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')

cleanup() {
  "${podman[@]}" rm -f -t 0 "$name" >/dev/null 2>&1 || true
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -f "$state"
}
trap cleanup EXIT
step() { echo "[container-check $((SECONDS - started))s] $*"; }

# The round trip's requests reuse the tests' helpers (tsx, sharp): installed packages are needed.
[ -x node_modules/.bin/tsx ] || npm ci --no-audit --no-fund

base=${BASE:-}
if [ -z "$base" ]; then
  step "making the base image (cached after the first run)"
  base=$(scripts/container-base.sh)
fi
# A host that trusts an extra CA for npm (a TLS-inspecting proxy) lends it to the build's npm ci.
ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  ca=(--volume "$NODE_EXTRA_CA_CERTS:/run/host-ca.pem:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.pem)
fi
step "building the image on $base"
"${podman[@]}" build --runtime "$runtime" --network host --format docker --build-arg "BASE=$base" "${ca[@]}" -t "$image" .
healthcheck=$("${podman[@]}" image inspect --format '{{json .Config.Healthcheck}}' "$image")
case "$healthcheck" in *api/health*) ;; *) echo "the image has no HEALTHCHECK on /api/health: $healthcheck" >&2; exit 1 ;; esac
user=$("${podman[@]}" image inspect --format '{{.Config.User}}' "$image")
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || { echo "the image runs as root" >&2; exit 1; }

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
url=http://127.0.0.1:$port
"${podman[@]}" volume create "$volume" >/dev/null
run() {
  # The tests' admin credentials (tests/support/server.ts), which the round trip logs in with.
  "${podman[@]}" run -d --name "$name" --network host -v "$volume:/data" \
    -e PORT="$port" -e PUBLIC_BASE_URL="$url" \
    -e ADMIN_PASSWORD='correct horse battery staple' \
    -e SESSION_SECRET="$secret" \
    -e ALLOWED_ADMIN_EMAILS=admin@example.com \
    "$image" >/dev/null
}
wait_healthy() {
  for _ in $(seq 1 120); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/api/health")" = 200 ]; then return 0; fi
    if [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" != true ]; then break; fi
    sleep 0.5
  done
  "${podman[@]}" logs "$name" >&2 || true
  echo "the container did not answer /api/health with 200" >&2
  exit 1
}

step "starting the container on $url"
run
wait_healthy
curl -fsS "$url/api/health"; echo
# The image's own HEALTHCHECK, as the engine runs it (inside the container).
"${podman[@]}" healthcheck run "$name"
step "round trip: init, PUT, confirm, listed"
node_modules/.bin/tsx scripts/container-round-trip.ts write "$url" "$state"

step "restarting: the same volume, a new container"
"${podman[@]}" stop -t 30 "$name" >/dev/null
"${podman[@]}" rm "$name" >/dev/null
run
wait_healthy
node_modules/.bin/tsx scripts/container-round-trip.ts verify "$url" "$state"
owner=$("${podman[@]}" exec "$name" stat -c %U /data/event.db)
[ "$owner" = app ] || { echo "/data/event.db belongs to $owner, not the image's user" >&2; exit 1; }

step "done"
echo "container ok"
