#!/usr/bin/env bash
# Load figures of the public pages under production-like settings: gunicorn with 2 workers, DEBUG off,
# a fresh SQLite database with the demo data, wrk with 50 connections for 20 s on each page.
# Prints one JSON line per page (requests/s, latency p50/p90/p99 in ms, non-2xx/3xx answers, socket errors,
# and `ratio`: the page's requests/s over `/health/`'s in the same run, the figure of issue 31), then the
# load average. The page cache (dwzsite/page_cache.py) is warm after the first requests: each page is also
# measured cold (CACHE=cold: DWZ_PAGE_CACHE=False, every request rendered; CACHE=both runs the two).
#
# Usage (from anywhere; run by hand, not in CI; needs wrk: apt-get install wrk):
#     bench/load.sh                 # this checkout
#     bench/load.sh /tmp/old-tree   # another checkout (e.g. `git worktree add --detach /tmp/old-tree <commit>`),
#                                   # served with this checkout's .venv, to compare before and after
#     LOAD_DATABASE_URL=postgres://postgres@127.0.0.1:5432/dwz_fed2m_load bench/load.sh
#                                   # an existing, migrated database instead of the demo (a copy of the 2 M
#                                   # federation: `createdb -T dwz_fed2m dwz_fed2m_load`); nothing is seeded
# Two lines more per run measure the evening a new list appears: `every card` and `every tournament` ask for
# all players' cards (all tournaments' pages) in a shuffled order, each about once, so even the warm run
# renders nearly every request (the page cache on, as deployed: a miss also writes the page).
# Environment: PAGES (all | many: all), PORT (8003), CONNECTIONS (50), DURATION (20s), WORKERS (2), CACHE (warm | cold | both: warm).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$(cd "${1:-$ROOT}" && pwd)
BIN=${VENV_BIN:-$ROOT/.venv/bin}
PORT=${PORT:-8003}
CONNECTIONS=${CONNECTIONS:-50}
DURATION=${DURATION:-20s}
WORKERS=${WORKERS:-2}
CACHE=${CACHE:-warm}
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

export DJANGO_SETTINGS_MODULE=dwzsite.settings DJANGO_DEBUG=False DJANGO_SECRET_KEY="load-bench-$RANDOM$RANDOM"
export DATABASE_URL="${LOAD_DATABASE_URL:-sqlite:///$work/load.sqlite3}" DJANGO_SECURE_COOKIES=False DJANGO_SECURE_SSL_REDIRECT=False
export DJANGO_LOG_LEVEL=ERROR
# The API's limit per address (120 a minute) would answer most of wrk's requests with 429: off here.
export DWZ_API_LIMIT=0
# Connections kept as docs/operations.md deploys them (a new PostgreSQL connection per request halved
# /health/'s own throughput on the 2 M copy: 203 requests/s).
export DATABASE_CONN_MAX_AGE=${DATABASE_CONN_MAX_AGE:-60}
cd "$SRC"
"$BIN/python" scripts/compile_messages.py >/dev/null
"$BIN/python" manage.py migrate --no-input -v 0
"$BIN/python" manage.py createcachetable
if [ -z "${LOAD_DATABASE_URL:-}" ]; then
  "$BIN/python" manage.py seed_demo >/dev/null
else  # the page cache's table may hold the last run's pages: every run starts cold
  "$BIN/python" manage.py shell --no-imports -v 0 -c 'from django.core.cache import caches; caches["pages"].clear()'
fi
"$BIN/python" manage.py collectstatic --no-input --clear -v 0

# The most-played player, the largest tournament and the largest club: the heaviest pages of the demo.
read -r player tournament club < <("$BIN/python" manage.py shell --no-imports -v 0 -c '
from django.db.models import Count
from ratings.models import Club, Player, Tournament
p = Player.objects.annotate(n=Count("evaluations")).order_by("-n", "pk").first()
t = Tournament.objects.annotate(n=Count("entries")).order_by("-n", "pk").first()
c = Club.objects.annotate(n=Count("memberships")).order_by("-n", "pk").first()
print(p.key, t.pk, c.zps)')
# Every card and every tournament page, shuffled (a seeded order: runs compare).
"$BIN/python" manage.py shell --no-imports -v 0 -c '
import random
from ratings.models import Player, Tournament
paths = [f"/spieler/{k}/" for k in Player.objects.filter(publication_objection=False).values_list("key", flat=True)]
random.Random(31).shuffle(paths)
open("'"$work"'/cards.txt", "w").write("\n".join(paths) + "\n")
paths = [f"/turniere/{pk}/" for pk in Tournament.objects.values_list("pk", flat=True)]
random.Random(31).shuffle(paths)
open("'"$work"'/tournaments.txt", "w").write("\n".join(paths) + "\n")'

# gunicorn reads ./gunicorn.conf.py when the checkout has one; the command line pins what we compare.
start() {
  # Its access log (gunicorn.conf.py) goes to a file: the JSON lines stay readable.
  DJANGO_SETTINGS_MODULE=dwzsite.settings DWZ_PAGE_CACHE=$1 "$BIN/gunicorn" --workers "$WORKERS" \
    --bind "127.0.0.1:$PORT" --log-level warning dwzsite.wsgi >>"$work/gunicorn.log" 2>&1 &
  server=$!
  for _ in $(seq 1 50); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health/" && break
    curl -fs -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
}
stop() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=; }

cat > "$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"page": "%s", "cache": "%s", "commit": "%s", "connections": %s, "duration_s": %.1f, "requests": %d, "rps": %.1f, '
    .. '"p50_ms": %.1f, "p90_ms": %.1f, "p99_ms": %.1f, "max_ms": %.1f, "non_2xx_3xx": %d, "socket_errors": %d}\n',
    os.getenv("LOAD_PAGE"), os.getenv("LOAD_CACHE"), os.getenv("LOAD_COMMIT"), os.getenv("CONNECTIONS"), seconds, summary.requests,
    summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
LUA
# Many paths: each wrk thread walks the shuffled file from its own starting point.
cat > "$work/many.lua" <<'LUA'
local threads = {}
local counter = 0
setup = function(thread)
  thread:set("offset", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
init = function(args)
  paths = {}
  for line in io.lines(os.getenv("LOAD_PATHS")) do
    if #line > 0 then table.insert(paths, line) end
  end
  i = math.floor(#paths * offset / 2)
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
cat "$work/report.lua" >> "$work/many.lua"

commit=${LOAD_COMMIT:-$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)}
export CONNECTIONS
pages=(/health/ / /ranglisten/ "/spieler/$player/" "/turniere/$tournament/" /vereine/ "/vereine/$club/" /turniere/
  "/api/players/$player")
[ "${PAGES:-all}" = many ] && pages=(/health/)  # PAGES=many: /health/ and the two lines of many pages only
# One line per page with its ratio to /health/ (measured first, in the same server run).
measure() {
  local mode=$1 health=
  for page in "${pages[@]}"; do
    status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$page")
    [ "$status" = 200 ] || { echo "$page answers $status, not 200" >&2; exit 1; }
    line=$(LOAD_PAGE=$page LOAD_CACHE=$mode LOAD_COMMIT=$commit wrk --threads 2 --connections "$CONNECTIONS" \
      --duration "$DURATION" --timeout 10s --script "$work/report.lua" "http://127.0.0.1:$PORT$page" | grep '^{')
    rps=$(sed -E 's/.*"rps": ([0-9.]+).*/\1/' <<<"$line")
    [ -n "$health" ] || health=$rps
    echo "${line%\}}, \"ratio\": $(awk -v a="$rps" -v b="$health" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')}"
  done
  for name in cards tournaments; do
    label="every ${name%s}"; [ "$name" = cards ] || label="every tournament"
    line=$(LOAD_PAGE=$label LOAD_CACHE=$mode LOAD_COMMIT=$commit LOAD_PATHS="$work/$name.txt" wrk --threads 2 \
      --connections "$CONNECTIONS" --duration "$DURATION" --timeout 10s --script "$work/many.lua" \
      "http://127.0.0.1:$PORT/" | grep '^{')
    rps=$(sed -E 's/.*"rps": ([0-9.]+).*/\1/' <<<"$line")
    echo "${line%\}}, \"paths\": $(wc -l <"$work/$name.txt"), \"ratio\": $(awk -v a="$rps" -v b="$health" \
      'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')}"
  done
  echo "{\"load_average\": \"$(cut -d' ' -f1-3 /proc/loadavg)\", \"cache\": \"$mode\"}"
}
case "$CACHE" in
  warm) modes=(warm) ;; cold) modes=(cold) ;; both) modes=(warm cold) ;;
  *) echo "CACHE: warm, cold or both, not $CACHE" >&2; exit 1 ;;
esac
for mode in "${modes[@]}"; do
  start "$([ "$mode" = warm ] && echo True || echo False)"
  measure "$mode"
  stop
done
