#!/usr/bin/env bash
# Fails when a tracked Markdown file (docs/, the READMEs, BENCHMARKS.md), or
# a comment in the source (Go, TypeScript, scripts, SQL, CSS, web/index.html,
# the Makefile), names a file or folder of the repository that does not
# exist: a path with a slash and a known ending (internal/app/app.go,
# api/openapi.yaml) or a folder under cmd/, internal/, web/, docs/, scripts/,
# deploy/, api/ or testdata/. A path is looked up from the repository's
# root and from the file's own folder; a shortened one (e2e/x.test.mjs for
# web/e2e/…) must end a tracked path. Globs (internal/*/oapi.yaml),
# placeholders (internal/x/…), URLs and the API's routes (/api/session) are
# passed over; in a comment, a Go qualified name (internal/store.BookingStore)
# names its package. It also fails on references to numbered sections or
# issues ("spec §3", "issue 42"): a doc or a comment states the rule in words.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
tracked=$(git ls-files; git ls-files | sed -n 's|/[^/]*$||p' | sort -u)
refs='spec §|§ ?[0-9]|[Ii]ssue #?[0-9]+|design\.md'

# ignored reports whether p, from dir or any folder above it, is a path the
# build or the tests write (web/e2e/screenshots).
ignored() {
  local p=$1 d=$2
  while :; do
    { git check-ignore -q "$d/$p" || git check-ignore -q "$d/$p/"; } 2>/dev/null && return 0
    [ "$d" = . ] && return 1
    d=$(dirname "$d")
  done
}

# check_paths FILE: reads candidate paths on stdin, one a line.
check_paths() {
  local f=$1 dir p
  dir=$(dirname "$f")
  while IFS= read -r p; do
    p=${p%%#*}          # a link's anchor
    p=${p%%:[0-9]*}     # file.go:123
    p=${p%.}            # a sentence's full stop
    [[ $p =~ ^(.*)\.[A-Z] ]] && p=${BASH_REMATCH[1]} # a Go qualified name
    p=${p%/}
    p=${p#./}
    [ -n "$p" ] || continue
    case "$p" in
      *'*'*|*'…'*|*'...'*|*'<'*|*'{'*|*'$'*|*'://'*|*/x/*|*/x|*/X*|*/NAME*|*/FILE*) continue ;;
    esac
    [ -e "$p" ] || [ -e "$dir/$p" ] && continue
    case "$p" in ../*) p=$(realpath -m --relative-to=. "$dir/$p") ;; esac
    ignored "$p" "$dir" && continue
    if ! grep -qE "(^|/)${p//./\\.}\$" <<<"$tracked"; then
      echo "$f: no such path: $p"
      bad=1
    fi
  done
}

candidates() {
  grep -oP '(?<![/A-Za-z0-9_.@*-])(\.\./)?[A-Za-z0-9_.@-]+(/[A-Za-z0-9_.@*…{}<>$-]+)+' |
    grep -E '^(\.\./)?(cmd|internal|web|docs|scripts|deploy|api|testdata|src|e2e|\.ci|\.github)/|\.(go|ts|tsx|mjs|js|json|sql|sh|yaml|yml|md|css|html)$' |
    grep -vE '^(https?|www\.)' | sort -u || true
}

while IFS= read -r -d '' md; do
  case "$md" in */node_modules/*) continue ;; esac
  check_paths "$md" < <(candidates < "$md")
  if grep -nE "$refs" "$md"; then
    echo "$md: a section or issue reference (state the rule in words)"
    bad=1
  fi
done < <(git ls-files -z '*.md')

# Comments in the source: whole lines that are comments (//, #, *, /*, <!--,
# --), generated code and this script (whose examples are made up) left out.
comments() { grep -E '^\s*(//|#|\*|/\*|<!--|--)' "$1" || true; }
while IFS= read -r -d '' f; do
  case "$f" in
    api/*|*/schema.d.ts|*.gen.go|*/node_modules/*|scripts/check-doc-paths.sh) continue ;;
  esac
  check_paths "$f" < <(comments "$f" | candidates)
  if comments "$f" | grep -nE "$refs"; then
    echo "$f: a section or issue reference in a comment (state the rule in words)"
    bad=1
  fi
done < <(git ls-files -z '*.go' '*.ts' '*.tsx' '*.mjs' '*.js' '*.html' '*.sh' '*.sql' '*.css' 'Makefile' '.ci/*')
exit $bad
