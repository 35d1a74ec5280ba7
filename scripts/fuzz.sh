#!/usr/bin/env bash
# Runs every Go fuzz target (func FuzzXxx in *_test.go) for a while each.
# usage: scripts/fuzz.sh DURATION [PACKAGE_DIR...]   e.g. scripts/fuzz.sh 3s ./internal/validate
# make test runs the quick ones for a few seconds; make fuzz runs all of them longer.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:?duration, e.g. 3s}
shift
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(./internal ./cmd)
grep -rl --include='*_test.go' '^func Fuzz' "${dirs[@]}" | while read -r file; do
  pkg=./$(dirname "$file")
  for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
    echo "fuzz $pkg $name ($time)"
    # Go's fuzzing coordinator sometimes ends a run on a busy machine with
    # "context deadline exceeded" and no failing input (a worker late to stop
    # at -fuzztime): that run is tried once more. A real failure writes its
    # input ("Failing input written to") and fails at once.
    for attempt in 1 2; do
      if out=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$time" 2>&1); then
        echo "$out"
        break
      fi
      echo "$out"
      if [ "$attempt" = 1 ] && grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written to' <<<"$out"; then
        echo "fuzz $pkg $name: the coordinator's deadline, no failing input: once more"
        continue
      fi
      exit 1
    done
  done
done
