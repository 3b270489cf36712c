#!/bin/sh
# runc, minus the resource limits podman writes into every container's spec. On these machines root
# lacks CAP_SYS_RESOURCE, and runc's prlimit of the container's first process fails (EPERM) even
# when --ulimit asks for no more than the host allows; without limits in the spec, the container
# simply inherits the host's. Passed to podman as --runtime by the container scripts.
bundle=; process=; previous=
for arg in "$@"; do
  case "$previous" in --bundle|-b) bundle=$arg ;; --process|-p) process=$arg ;; esac
  previous=$arg
done
strip() {
  node -e '
    const fs = require("fs"); const [file, where] = process.argv.slice(1)
    const spec = JSON.parse(fs.readFileSync(file, "utf8"))
    const target = where === "process" ? spec : spec.process
    if (target && target.rlimits) { delete target.rlimits; fs.writeFileSync(file, JSON.stringify(spec)) }
  ' "$1" "$2"
}
if [ -n "$bundle" ] && [ -f "$bundle/config.json" ]; then strip "$bundle/config.json" bundle; fi
if [ -n "$process" ] && [ -f "$process" ]; then strip "$process" process; fi
exec runc "$@"
