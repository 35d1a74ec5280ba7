#!/usr/bin/env bash
# Fails when a tracked file is a built binary (ELF, Mach-O, PE) or larger
# than 3 MB outside the PDF fonts and the postal data, which are shipped on
# purpose. Built programs and bench outputs belong in .gitignore.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=$((3 * 1024 * 1024))
bad=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  case "$f" in internal/pdf/fonts/*|internal/account/postal/*) continue ;; esac
  magic=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
  case "$magic" in
    7f454c46|cffaedfe|cefaedfe|feedfacf|feedface|4d5a*)
      echo "tracked binary: $f"; bad=1 ;;
  esac
  size=$(stat -c %s "$f")
  if [ "$size" -gt "$limit" ]; then echo "tracked file over 3 MB: $f ($size bytes)"; bad=1; fi
done < <(git ls-files -z)
exit $bad
