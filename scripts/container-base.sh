#!/usr/bin/env bash
# Makes a stand-in for node:20-bookworm-slim where no container registry is reachable: Debian
# bookworm from the apt mirror this machine already uses (debootstrap), plus this machine's own
# Node 20 and npm, imported into podman. Prints the image's name; reuses it when it exists.
#
# The host's node binary is a glibc build linked against the host's libc and libstdc++, so the
# host must be bookworm (or older) for it to run inside; the last step proves it does.
set -euo pipefail

node_version=$(node -p 'process.versions.node')
case "$node_version" in 20.*) ;; *) echo "container-base: the host's node is $node_version; Node 20 is needed" >&2; exit 1 ;; esac
image="localhost/event-media-base:bookworm-node$node_version"
podman=(podman --cgroup-manager cgroupfs --runtime "$(cd "$(dirname "$0")" && pwd)/runc-without-rlimits.sh")

# Node must run in it: checked each time, and never a reason to throw the image away.
runs_node() {
  "${podman[@]}" run --rm --network host "$image" node -e 'process.exit(0)' >&2 || {
    echo "container-base: node does not run in $image (the error above)" >&2
    exit 1
  }
}

if "${podman[@]}" image exists "$image"; then
  runs_node
  echo "$image"
  exit 0
fi

# The first mirror apt is configured with (deb822 or one-line format), else Debian's own.
# (Some of these files are missing on any one machine; a failed lookup falls back below.)
mirror=${DEBIAN_MIRROR:-$(
  cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '$1 == "URIs:" || $1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }' | grep -v -e security -e nodesource | head -n1 || true
)}
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d "${TMPDIR:-/var/tmp}/event-media-base.XXXXXX")
# --one-file-system: never into a /proc or /sys that an interrupted debootstrap left mounted.
trap 'umount "$root/proc" "$root/sys" 2>/dev/null || true; rm -rf --one-file-system "$root"' EXIT
echo "container-base: debootstrap bookworm from $mirror (a few minutes)" >&2
# passwd: the image's Dockerfile makes its own user; ca-certificates: npm over https.
# The downloaded packages are kept for the next base (a new host node version, a pruned image).
debs=${XDG_CACHE_HOME:-$HOME/.cache}/event-media/debs
mkdir -p "$debs"
debootstrap --variant=minbase --include=ca-certificates,passwd --cache-dir="$debs" bookworm "$root" "$mirror" >&2

node_bin=$(command -v node)
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
install -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

tar -C "$root" -c . | "${podman[@]}" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >&2
runs_node
echo "$image"
