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
    go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$time"
  done
done
