#!/usr/bin/env bash
# The imports' speed and memory: makes N members and M
# bookings as NDJSON, imports them into a new SQLite database (and into
# PostgreSQL when MEMBERS_TEST_PG or the local test server answers), and
# prints rows/s and the peak RSS of each run. Usage:
#   scripts/bench-import.sh [MEMBERS] [BOOKINGS]   (defaults 10000 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
members=${1:-10000}
bookings=${2:-20000}
bin=${MEMBERS_BIN:-bin/members}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

awk -v n="$members" 'BEGIN{for(i=1;i<=n;i++) printf "{\"memberNumber\":\"B%07d\",\"email\":\"bench%07d@example.com\",\"firstname\":\"Aoi\",\"lastname\":\"Kimura\",\"gender\":\"female\",\"birth\":\"1990-05-06\",\"tel\":\"0612345678\",\"addressCountryCode\":\"JP\",\"addressPostalCode\":\"5300001\",\"addressStateAndCity\":\"Osaka Kita-ku\",\"address1\":\"1-1 Umeda\",\"lang\":\"jp\",\"passwordHash\":\"$2y$04$Pp/PeqRQa2cG0whfRkiKku.d.0EYnXWeoejxLDR1lWW2oDMLmBwYu\"}\n", i, i}' > "$dir/members.ndjson"
awk -v n="$bookings" -v m="$members" 'BEGIN{for(i=1;i<=n;i++){d=10+i%300; day=sprintf("2027-%02d-%02d", 1+int(d/28)%12, 1+d%28); printf "{\"pnr\":\"P%07d\",\"version\":1,\"memberNumber\":\"B%07d\",\"bookingDate\":\"2026-12-01T10:00:00+09:00\",\"statusCode\":\"CONFIRMED\",\"currency\":\"JPY\",\"totalAmount\":12800,\"contactEmail\":\"bench@example.com\",\"passengers\":[{\"lastname\":\"KIMURA\",\"firstname\":\"AOI\",\"passengerType\":\"ADULT\"}],\"segments\":[{\"key\":\"1\",\"flight\":\"MM%d\",\"originAirportCode\":\"KIX\",\"destinationAirportCode\":\"CTS\",\"departDateTime\":\"%sT10:00:00+09:00\",\"arrivalDateTime\":\"%sT12:00:00+09:00\",\"statusCode\":\"CONFIRMED\",\"originTerminal\":\"1\",\"destinationTerminal\":\"\"}]}\n", i, 1+i%m, 100+i%300, day, day}}' > "$dir/bookings.ndjson"

run() { # engine dsn kind file
  local out
  /usr/bin/time -o "$dir/time" -f 'rss_kb=%M wall=%e' "$bin" import "$3" --db "$2" "$4" >"$dir/summary" 2>"$dir/err" || true
  out=$(cat "$dir/time")
  local rows wall rss
  rows=$(wc -l < "$4")
  wall=$(sed -n 's/.*wall=\([0-9.]*\).*/\1/p' <<<"$out")
  rss=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' <<<"$out")
  printf '| %s | %s | %d | %s s | %d rows/s | %d MB | %s |\n' "$1" "$3" "$rows" "$wall" \
    "$(awk -v r="$rows" -v w="$wall" 'BEGIN{printf "%d", (w>0 ? r/w : 0)}')" "$((rss / 1024))" "$(tail -1 "$dir/summary")"
}

echo "| engine | kind | rows | wall | rate | peak RSS | summary |"
echo "|---|---|---|---|---|---|---|"
"$bin" migrate --db "sqlite:$dir/bench.db" >/dev/null 2>&1
run sqlite "sqlite:$dir/bench.db" members "$dir/members.ndjson"
run sqlite "sqlite:$dir/bench.db" bookings "$dir/bookings.ndjson"
pg=${MEMBERS_TEST_PG:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
if command -v psql >/dev/null && psql "$pg" -qc 'DROP SCHEMA IF EXISTS bench_import CASCADE; CREATE SCHEMA bench_import' >/dev/null 2>&1; then
  pgdsn="${pg}&search_path=bench_import"
  "$bin" migrate --db "$pgdsn" >/dev/null 2>&1
  run postgres "$pgdsn" members "$dir/members.ndjson"
  run postgres "$pgdsn" bookings "$dir/bookings.ndjson"
  psql "$pg" -qc 'DROP SCHEMA bench_import CASCADE' >/dev/null 2>&1 || true
fi
