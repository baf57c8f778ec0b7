#!/usr/bin/env bash
# Builds the image with podman and runs it the ways docs/production.md describes. By hand only:
# it builds the whole image (minutes), too long for CI.
#   scripts/container-smoke.sh [NODE_IMAGE]   base image, also from $NODE_IMAGE; default node:20-bookworm-slim
#   scripts/container-smoke.sh --local-base   first makes localhost/tarmac-node-base:20 from this
#                                             machine's node and npm (debootstrap, as root), for
#                                             hosts that cannot pull a Node image
# Then, on the host network and loopback only:
#   1. this machine's PostgreSQL (PGHOST, PGPORT, PGUSER; default 127.0.0.1, 5432, postgres) and a
#      bucket (s3rver, a dev dependency: run npm ci first), with two web containers and a worker
#      as compose.yaml splits them, behind deploy/compose/Caddyfile when caddy is installed:
#      readiness, the image's health check, the API (scripts/container-smoke-api.mjs), the
#      worker's metrics, the builds again with web-1 stopped, clean stops;
#   2. the one-process variant: embedded database and local storage in a volume: the API, a
#      backup through `podman exec`, the builds again after a restart and from the backup
#      restored into a new volume.
# Prints the image size and how long the build and each start took. Keeps the image
# (localhost/tarmac:smoke) and podman's build cache; removes its containers, volumes, database
# and temporary files, also those an interrupted run left behind.
set -euo pipefail
cd "$(dirname "$0")/.."

image=localhost/tarmac:smoke
local_base=localhost/tarmac-node-base:20
database=tarmac_container_smoke
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
admin=admin@tarmac.test
person=person@tarmac.test
# A fresh password each run, long and unlike the address, so the password rules accept it.
password="Smoke-$(node -e 'console.log(require("node:crypto").randomBytes(12).toString("base64url"))')"

node_image="${NODE_IMAGE:-node:20-bookworm-slim}"
make_base=false
case "${1:-}" in
  --local-base) make_base=true node_image="$local_base" ;;
  -h | --help) sed -n '2,19p' "$0" && exit 0 ;;
  ?*) node_image="$1" ;;
esac

step() { printf '\n=== %s\n' "$*"; }
now() { date +%s.%N; }
since() { awk -v start="$1" -v end="$(now)" 'BEGIN { printf "%.1f s", end - start }'; }
free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}
status_of() { node -e 'fetch(process.argv[1]).then((r) => console.log(r.status), () => console.log(0))' "$1"; }

cleanup() {
  for container in $(podman ps -a --format '{{.Names}}' | grep '^tarmac-smoke-' || true); do
    podman rm -f -v -t 0 "$container" >/dev/null 2>&1 || true
  done
  for volume in $(podman volume ls --format '{{.Name}}' | grep '^tarmac-smoke-' || true); do
    podman volume rm -f "$volume" >/dev/null 2>&1 || true
  done
  psql -d postgres -qc "drop database if exists ${database} with (force)" >/dev/null 2>&1 || true
  for pid in ${s3_pid:-} ${caddy_pid:-}; do kill "$pid" 2>/dev/null || true; done
  rm -rf "${TMPDIR:-/tmp}"/tarmac-smoke.*
}

on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -n "${current:-}" ]; then
    printf '\n--- last lines of %s\n' "$current"
    podman logs --tail 40 "$current" 2>&1 || true
  fi
  if [ "$status" -ne 0 ] && [ -s "${work:-}/caddy.log" ]; then
    printf '\n--- last lines of Caddy\n'
    tail -n 20 "$work/caddy.log"
  fi
  cleanup
  [ "$status" -eq 0 ] || printf '\ncontainer smoke test FAILED\n'
}

command -v podman >/dev/null || { echo "podman is needed (apt-get install podman)"; exit 1; }
[ -d node_modules/s3rver ] || { echo "run npm ci first: the bucket is s3rver from the dev dependencies"; exit 1; }
cleanup
trap on_exit EXIT
work="$(mktemp -d "${TMPDIR:-/tmp}/tarmac-smoke.XXXXXX")"

# Node and npm laid out as the official images have them, on a minimal Debian; the host's CA
# bundle goes along so npm inside trusts what this machine trusts (a TLS-inspecting proxy, say).
make_local_base() {
  command -v debootstrap >/dev/null || { echo "--local-base needs debootstrap (apt-get install debootstrap)"; exit 1; }
  local rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
  install -m 755 "$(readlink -f "$(command -v node)")" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/etc/ssl/certs"
  cp -a "$(npm root -g)/npm" "$rootfs/usr/local/lib/node_modules/"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  local changes=(--change 'CMD ["node"]')
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
    changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
  fi
  tar -C "$rootfs" -c . | podman import "${changes[@]}" - "$local_base" >"$work/import.log" 2>&1 ||
    { cat "$work/import.log"; exit 1; }
  rm -rf "$rootfs"
}

if $make_base; then
  step "base image $local_base from $(node --version) on Debian bookworm"
  if podman image exists "$local_base"; then
    echo "kept from an earlier run (podman rmi $local_base makes it anew)"
  else
    started=$(now)
    make_local_base
    echo "made in $(since "$started")"
  fi
fi

step "build $image on $node_image"
started=$(now)
# Docker's format: OCI images have no HEALTHCHECK.
podman build --format docker --build-arg NODE_IMAGE="$node_image" -t "$image" . >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
build_time=$(since "$started")
size=$(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }')
echo "built in $build_time; image size $size"

# Starts a container in the background on the host network; answers nothing, sets $current.
start() {
  local name="$1"
  shift
  current="$name"
  podman run -d --name "$name" --network host -e HOST=127.0.0.1 -e METRICS_HOST=127.0.0.1 \
    -e ADMIN_EMAILS="$admin" "$@" "$image" >"$work/$name.run" 2>&1 || { cat "$work/$name.run"; exit 1; }
}

# Waits for readiness (200) and prints how long it took since $1.
wait_ready() {
  local url="$1" started="$2"
  for _ in $(seq 1 240); do
    [ "$(status_of "$url/api/health/ready/")" = 200 ] && { echo "ready $(since "$started") after start"; return; }
    sleep 0.25
  done
  echo "not ready within 60 s"
  exit 1
}

# Stops with SIGTERM, as an orchestrator does, and expects a clean exit.
stop() {
  podman stop -t 15 "$1" >/dev/null 2>&1
  local code
  code=$(podman inspect --format '{{.State.ExitCode}}' "$1")
  [ "$code" = 0 ] || { echo "$1 exited with $code after SIGTERM"; exit 1; }
  echo "$1 stopped cleanly"
}

step "PostgreSQL, a bucket, two web containers and a worker, as compose.yaml splits them"
psql -d postgres -qc "create database ${database}"
s3_port=$(free_port)
mkdir "$work/s3"
node node_modules/s3rver/bin/s3rver.js -d "$work/s3" -a 127.0.0.1 -p "$s3_port" --silent \
  --configure-bucket tarmac >"$work/s3rver.log" 2>&1 &
s3_pid=$!
web1="http://127.0.0.1:$(free_port)"
web2="http://127.0.0.1:$(free_port)"
# With Caddy on this machine, the requests go through deploy/compose/Caddyfile's proxy, over TLS.
if command -v caddy >/dev/null; then
  url="https://localhost:$(free_port)"
else
  url="$web1"
fi
shared=(
  -e DATABASE_URL="postgres://${PGUSER}@${PGHOST}:${PGPORT}/${database}"
  -e SECRET_KEY="$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))')"
  -e STORAGE_DRIVER=s3 -e S3_ENDPOINT="http://127.0.0.1:$s3_port" -e S3_BUCKET=tarmac
  -e S3_ACCESS_KEY_ID=S3RVER -e S3_SECRET_ACCESS_KEY=S3RVER -e S3_FORCE_PATH_STYLE=true
  -e STORAGE_PROXY_DOWNLOADS=true -e PUBLIC_URL="$url" -e TRUST_PROXY=true -v tarmac-smoke-shared:/data
)
started=$(now)
start tarmac-smoke-web-1 "${shared[@]}" -e ROLES=web -e PORT="${web1##*:}" -e METRICS_PORT="$(free_port)"
echo -n "web-1 (migrates the new database): " && wait_ready "$web1" "$started"
started=$(now)
start tarmac-smoke-web-2 "${shared[@]}" -e ROLES=web -e PORT="${web2##*:}" -e METRICS_PORT="$(free_port)"
echo -n "web-2: " && wait_ready "$web2" "$started"
worker_metrics=$(free_port)
start tarmac-smoke-worker "${shared[@]}" -e ROLES=worker -e METRICS_PORT="$worker_metrics"
podman healthcheck run tarmac-smoke-web-1 >/dev/null 2>&1 || { echo "the image's health check failed"; exit 1; }
echo "the image's health check passes"

if [ "$url" != "$web1" ]; then
  # The compose Caddyfile as it is, but for its upstreams (here on loopback), its ports, and no
  # admin endpoint or change to this machine's trust store.
  {
    printf '{\n\tadmin off\n\thttp_port %s\n\thttps_port %s\n\tskip_install_trust\n}\n' "$(free_port)" "${url##*:}"
    sed -e "s|web-1:3000|${web1#http://}|" -e "s|web-2:3000|${web2#http://}|" deploy/compose/Caddyfile
  } >"$work/Caddyfile"
  TARMAC_HOST="localhost:${url##*:}" XDG_DATA_HOME="$work/caddy" XDG_CONFIG_HOME="$work/caddy" \
    caddy run --adapter caddyfile --config "$work/Caddyfile" >"$work/caddy.log" 2>&1 &
  caddy_pid=$!
  root="$work/caddy/caddy/pki/authorities/local/root.crt"
  for _ in $(seq 1 40); do [ -f "$root" ] && break; sleep 0.25; done
  [ -f "$root" ] || { tail -20 "$work/caddy.log"; exit 1; }
  # Node trusts Caddy's local authority for these requests, beside what it trusted already.
  cat ${NODE_EXTRA_CA_CERTS:+"$NODE_EXTRA_CA_CERTS"} "$root" >"$work/ca.pem"
  export NODE_EXTRA_CA_CERTS="$work/ca.pem"
  echo -n "Caddy at $url: " && wait_ready "$url" "$(now)"
fi

current=tarmac-smoke-web-1
token=$(podman exec tarmac-smoke-web-1 node apps/server/dist/issue-admin-token.js "$admin" 2>"$work/token.log") ||
  { cat "$work/token.log"; exit 1; }
ADMIN_TOKEN="$token" node scripts/container-smoke-api.mjs first "$url" "$person" "$password"
[ "$(status_of "http://127.0.0.1:$worker_metrics/metrics")" = 200 ] || { echo "no worker metrics"; exit 1; }
echo "the worker serves metrics"
stop tarmac-smoke-web-1
if [ "$url" = "$web1" ]; then
  url="$web2"
else
  # Once its health check has failed (every 5 s), Caddy sends everything to web-2. Sooner, a
  # request refused by web-1 is retried on web-2, but Caddy before 2.11.2 (Debian 12 has 2.6)
  # cannot retry one with a body.
  sleep 6
fi
node scripts/container-smoke-api.mjs again "$url" "$person" "$password"
stop tarmac-smoke-web-2
stop tarmac-smoke-worker
if [ -n "${caddy_pid:-}" ]; then
  kill "$caddy_pid"
  wait "$caddy_pid" 2>/dev/null || true
  caddy_pid=
  rm "$work/caddy.log"
fi

step "one process: embedded database and local storage in a volume"
port=$(free_port)
url="http://127.0.0.1:$port"
# The embedded database belongs to one process: the first administrator's key is made before it starts.
token=$(podman run --rm -v tarmac-smoke-data:/data "$image" node apps/server/dist/issue-admin-token.js "$admin" \
  2>"$work/token.log") || { cat "$work/token.log"; exit 1; }
single=(-e PORT="$port" -e METRICS_PORT=0 -e PUBLIC_URL="$url")
started=$(now)
start tarmac-smoke-single -v tarmac-smoke-data:/data "${single[@]}"
echo -n "new data volume: " && wait_ready "$url" "$started"
ADMIN_TOKEN="$token" node scripts/container-smoke-api.mjs first "$url" "$person" "$password"
# The running server takes the backup itself; it is copied out of the container afterwards.
podman exec tarmac-smoke-single node apps/server/dist/backup.js backup /tmp/backup
podman cp tarmac-smoke-single:/tmp/backup "$work/backup"
stop tarmac-smoke-single
started=$(now)
podman start tarmac-smoke-single >/dev/null 2>&1
echo -n "restarted: " && wait_ready "$url" "$started"
node scripts/container-smoke-api.mjs again "$url" "$person" "$password"
stop tarmac-smoke-single
# As root, since the copied-out files belong to whoever copied them (the secret key is mode 600);
# the restored files are then handed to the image's user.
podman run --rm --user 0 -v tarmac-smoke-restored:/data -v "$work/backup:/backup:ro" "$image" \
  sh -c 'node apps/server/dist/backup.js restore /backup && chown -R 1000:1000 /data' \
  2>"$work/restore.log" || { cat "$work/restore.log"; exit 1; }
started=$(now)
start tarmac-smoke-restored -v tarmac-smoke-restored:/data "${single[@]}"
echo -n "restored into a new volume: " && wait_ready "$url" "$started"
node scripts/container-smoke-api.mjs again "$url" "$person" "$password"
stop tarmac-smoke-restored
current=

step "passed: image $image, $size, built in $build_time on $node_image"
