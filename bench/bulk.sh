#!/usr/bin/env bash
# make bench-bulk: a 10,000-row spreadsheet job through the real server
# (issue 12), and the same rows through the renderer alone as the floor.
#
# Starts bin/squarely on SQLite in a temporary data directory, signs up,
# runs the job (dry run, queue, save, PNG ZIP at 512 px, SVG ZIP), decodes
# every PNG entry, then reads the server's peak memory (VmHWM). Exits
# non-zero when a target is missed: validation <= 2 s, whole ZIP <= 30 s,
# peak server RSS <= 200 MB.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-bin/squarely}
ROWS=${BENCH_ROWS:-10000}
MAX_RSS_MB=200

[ -x "$BIN" ] || { echo "bench: $BIN is missing; run make build" >&2; exit 1; }

tmp=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/bulk" ./bench/bulk
echo "bench: load before: $(uptime)"
echo "bench: renderer alone ($ROWS rows, PNG 512 px and SVG, every core)"
"$tmp/bulk" floor "$ROWS" | sed 's/^/  /'

echo "bench: squarely ($BIN, sqlite)"
SQUARELY_DATA_DIR="$tmp/data" SQUARELY_ADDR=127.0.0.1:0 SQUARELY_BASE_URL=http://127.0.0.1 "$BIN" serve 2> "$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q 'msg=listening' "$tmp/server.log" 2>/dev/null && break
  sleep 0.1
done
addr=$(sed -n 's/.*msg=listening addr=\([^ ]*\).*/\1/p' "$tmp/server.log")
[ -n "$addr" ] || { echo "bench: the server did not start" >&2; cat "$tmp/server.log" >&2; exit 1; }

status=0
"$tmp/bulk" job "$addr" "$ROWS" | sed 's/^/  /' || status=1
rss_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")
rss_mb=$((rss_kb / 1024))
echo "  bench: peak_server_rss=${rss_mb}MB"
echo "bench: load after: $(uptime)"
if [ "$rss_mb" -gt "$MAX_RSS_MB" ]; then
  echo "bench: target missed: peak server RSS ${rss_mb} MB > ${MAX_RSS_MB} MB" >&2
  status=1
fi
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
exit $status
