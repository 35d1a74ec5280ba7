#!/usr/bin/env bash
# Measures the browser test files one at a time: wall seconds, CPU seconds
# (user + system, the server and Chromium included) and the load average
# when each started, one line a file, for docs/testing.md.
#   scripts/e2e-times.sh                  every file in web/e2e
#   scripts/e2e-times.sh payment points   only these (names without .test.mjs)
# Needs bin/members (make build); writes nothing but its report on stdout
# (each file's test output goes to $TMPDIR/e2e-times/NAME.log).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="$PWD/bin/members"
test -x "$bin" || { echo "needs bin/members: make build" >&2; exit 2; }
logs="${TMPDIR:-/tmp}/e2e-times"
mkdir -p "$logs"
if [ $# -gt 0 ]; then names=("$@"); else
  names=(); for f in web/e2e/*.test.mjs; do n=${f##*/}; names+=("${n%.test.mjs}"); done
fi
printf '%-26s %7s %7s %5s %s\n' file wall_s cpu_s load result
for n in "${names[@]}"; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  (cd web && MEMBERS_BIN="$bin" /usr/bin/time -f '%U %S' -o "$logs/$n.time" \
    node --test "e2e/$n.test.mjs") >"$logs/$n.log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  read -r user sys <"$logs/$n.time" 2>/dev/null || { user=0; sys=0; }
  printf '%-26s %7.1f %7.1f %5s %s\n' "$n" "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" "$load" \
    "$([ $rc -eq 0 ] && echo ok || echo "FAILED ($logs/$n.log)")"
done
