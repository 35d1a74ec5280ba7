#!/usr/bin/env bash
# The imports' speed and memory (part of `make bench`, which runs the full
# size: 100,000 members and 1,000,000 bookings). It makes MEMBERS members
# (each with an old system's bcrypt hash), MEMBERS/10 more without a hash
# (each mailed a set-password link) and BOOKINGS bookings as NDJSON (half of
# them return trips, one to three passengers, each naming one of the
# members), imports them with `members import members|bookings` into a new
# SQLite database and into a PostgreSQL schema (when MEMBERS_TEST_PG or the
# local test server answers), then the same bookings file again (every line
# a duplicate: the run after an interruption), and prints rows/s and the
# peak RSS (/usr/bin/time) of each run with the machine's load average
# before it. Usage:
#   scripts/bench-import.sh [MEMBERS] [BOOKINGS]   (defaults 10000 20000)
# ENGINES="sqlite postgres" picks the engines; NICE=10 runs the imports
# under nice (a shared machine); MEMBERS_BIN the binary (bin/members);
# OUT=BENCHMARKS.md also writes the figures into that file's "import"
# section (cmd/benchsection), as `make bench` does.
set -euo pipefail
cd "$(dirname "$0")/.."
members=${1:-10000}
bookings=${2:-20000}
bin=${MEMBERS_BIN:-bin/members}
engines=${ENGINES:-sqlite postgres}
nice=()
if [ -n "${NICE:-}" ]; then nice=(nice -n "$NICE"); fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

hash='$2y$04$Pp/PeqRQa2cG0whfRkiKku.d.0EYnXWeoejxLDR1lWW2oDMLmBwYu'
member_line='{"memberNumber":"%s%07d","email":"%s%07d@example.com","firstname":"Aoi","lastname":"Kimura","gender":"female","birth":"1990-05-06","tel":"0612345678","addressCountryCode":"JP","addressPostalCode":"5300001","addressStateAndCity":"Osaka Kita-ku","address1":"1-1 Umeda","lang":"jp"%s}\n'
awk -v n="$members" -v f="$member_line" -v h=",\"passwordHash\":\"$hash\"" 'BEGIN{for(i=1;i<=n;i++) printf f, "B", i, "bench", i, h}' > "$dir/members.ndjson"
awk -v n="$((members / 10))" -v f="$member_line" 'BEGIN{for(i=1;i<=n;i++) printf f, "N", i, "nohash", i, ""}' > "$dir/members-nohash.ndjson"
# Departures from 10 days ahead on, on 300 flights a day; a return trip 3
# days later on the flight numbered one higher.
awk -v n="$bookings" -v m="$members" 'BEGIN{
  srand(1)
  for(i=1;i<=n;i++){
    d=10+i%300; day=sprintf("2027-%02d-%02d", 1+int(d/28)%12, 1+d%28); back=sprintf("2027-%02d-%02d", 1+int(d/28)%12, 1+(d+3)%28)
    f=100+i%300
    segs=sprintf("{\"key\":\"1\",\"flight\":\"MM%d\",\"originAirportCode\":\"KIX\",\"destinationAirportCode\":\"CTS\",\"departDateTime\":\"%sT10:00:00+09:00\",\"arrivalDateTime\":\"%sT12:00:00+09:00\",\"statusCode\":\"CONFIRMED\",\"originTerminal\":\"1\",\"destinationTerminal\":\"\"}", f, day, day)
    if(i%2==0) segs=segs sprintf(",{\"key\":\"2\",\"flight\":\"MM%d\",\"originAirportCode\":\"CTS\",\"destinationAirportCode\":\"KIX\",\"departDateTime\":\"%sT15:00:00+09:00\",\"arrivalDateTime\":\"%sT17:00:00+09:00\",\"statusCode\":\"CONFIRMED\",\"originTerminal\":\"\",\"destinationTerminal\":\"1\"}", f+1, back, back)
    pax="{\"lastname\":\"KIMURA\",\"firstname\":\"AOI\",\"passengerType\":\"ADULT\"}"
    for(p=1;p<=i%3;p++) pax=pax ",{\"lastname\":\"KIMURA\",\"firstname\":\"KEN\",\"passengerType\":\"ADULT\"}"
    printf "{\"pnr\":\"P%07d\",\"version\":1,\"memberNumber\":\"B%07d\",\"bookingDate\":\"2026-12-01T10:00:00+09:00\",\"statusCode\":\"CONFIRMED\",\"currency\":\"JPY\",\"totalAmount\":12800,\"contactEmail\":\"bench@example.com\",\"passengers\":[%s],\"segments\":[%s]}\n", i, 1+i%m, pax, segs
  }}' > "$dir/bookings.ndjson"

run() { # engine dsn kind file label
  local load
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -o "$dir/time" -f 'rss_kb=%M wall=%e cpu=%U+%S' "${nice[@]}" "$bin" import "$3" --db "$2" "$4" >"$dir/summary" 2>"$dir/err" || true
  local out rows wall rss cpu
  out=$(cat "$dir/time")
  rows=$(wc -l < "$4")
  wall=$(sed -n 's/.*wall=\([0-9.]*\).*/\1/p' <<<"$out")
  rss=$(sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' <<<"$out")
  cpu=$(sed -n 's/.*cpu=\([0-9.+]*\).*/\1/p' <<<"$out")
  printf '| %s | %s | %d | %s s | %d rows/s | %d MB | %s s | %s | %s |\n' "$1" "$5" "$rows" "$wall" \
    "$(awk -v r="$rows" -v w="$wall" 'BEGIN{printf "%d", (w>0 ? r/w : 0)}')" "$((rss / 1024))" "$cpu" "$load" "$(tail -1 "$dir/summary")"
}

all() { # engine dsn
  run "$1" "$2" members "$dir/members.ndjson" "members"
  run "$1" "$2" members "$dir/members-nohash.ndjson" "members without a hash (a mail each)"
  run "$1" "$2" bookings "$dir/bookings.ndjson" "bookings"
  run "$1" "$2" bookings "$dir/bookings.ndjson" "the bookings again (all duplicate)"
}

report() {
  echo "$(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $members members, $bookings bookings${NICE:+, under nice -n $NICE}"
  echo
  echo "| engine | import | rows | wall | rate | peak RSS | CPU (user+sys) | load average before | summary |"
  echo "|---|---|---:|---:|---:|---:|---:|---|---|"
  for engine in $engines; do
    case $engine in
    sqlite)
      "$bin" migrate --db "sqlite:$dir/bench.db" >/dev/null 2>&1
      all sqlite "sqlite:$dir/bench.db"
      rm -f "$dir"/bench.db*
      ;;
    postgres)
      pg=${MEMBERS_TEST_PG:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
      if command -v psql >/dev/null && psql "$pg" -qc 'DROP SCHEMA IF EXISTS bench_import CASCADE; CREATE SCHEMA bench_import' >/dev/null 2>&1; then
        sep='?'
        case $pg in *\?*) sep='&' ;; esac
        pgdsn="${pg}${sep}search_path=bench_import"
        "$bin" migrate --db "$pgdsn" >/dev/null 2>&1
        all postgres "$pgdsn"
        psql "$pg" -qc 'DROP SCHEMA bench_import CASCADE' >/dev/null 2>&1 || true
      else
        echo "| postgres | skipped: no server at $pg | | | | | | | |"
      fi
      ;;
    esac
  done
}

report | tee "$dir/report"
if [ -n "${OUT:-}" ]; then
  {
    echo '## Imports from the airline'"'"'s systems (`scripts/bench-import.sh`, part of `make bench`)'
    echo
    echo 'The NDJSON files made by the script (members with an old system'"'"'s bcrypt hash, a tenth more without one, each'
    echo 'mailed a set-password link; bookings of one to three passengers, half of them return trips, each naming a member)'
    echo 'imported with `members import members|bookings` into a new database, then the same bookings file again (every line'
    echo 'a duplicate: the run after an interruption). Peak RSS and CPU from `/usr/bin/time`. Goals: 1,000,000 bookings in'
    echo 'under 10 minutes on 2 cores, peak RSS under 250 MB.'
    echo
    cat "$dir/report"
  } | go run ./cmd/benchsection import "$OUT"
fi
