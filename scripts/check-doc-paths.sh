#!/usr/bin/env bash
# Fails when a tracked Markdown file (docs/, the READMEs, BENCHMARKS.md)
# names a file or folder of the repository that does not exist: a path
# with a slash and a known ending (internal/app/app.go, web/src/main.tsx,
# api/openapi.yaml) or a folder under cmd/, internal/, web/, docs/,
# scripts/, deploy/, api/ or testdata/. A path is looked up from the
# repository's root and from the Markdown file's own folder; a shortened
# one (e2e/x.test.mjs for web/e2e/…) must end a tracked path. Globs
# (internal/*/oapi.yaml), placeholders (internal/x/…), URLs and the API's
# routes (/api/session) are passed over. It also fails on references to numbered sections or issues
# ("spec §3", "issue 42"): a doc states the rule in words.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
tracked=$(git ls-files; git ls-files | sed -n 's|/[^/]*$||p' | sort -u)
while IFS= read -r -d '' md; do
  case "$md" in */node_modules/*) continue ;; esac
  dir=$(dirname "$md")
  # candidate paths: in backticks, in link targets, or bare words
  while IFS= read -r p; do
    p=${p%%#*}          # a link's anchor
    p=${p%%:[0-9]*}     # file.go:123
    p=${p%/}
    p=${p#./}
    [ -n "$p" ] || continue
    case "$p" in
      *'*'*|*'…'*|*'...'*|*'<'*|*'{'*|*'$'*|*'://'*|*/x/*|*/x|*/X*|*/NAME*|*/FILE*) continue ;;
    esac
    [ -e "$p" ] || [ -e "$dir/$p" ] && continue
    case "$p" in ../*) p=$(realpath -m --relative-to=. "$dir/$p") ;; esac
    # an ignored path is one the build or the tests write (web/e2e/screenshots)
    { git check-ignore -q "$p" || git check-ignore -q "$p/"; } 2>/dev/null && continue
    if ! grep -qE "(^|/)${p//./\\.}\$" <<<"$tracked"; then
      echo "$md: no such path: $p"
      bad=1
    fi
  done < <(grep -oP '(?<![/A-Za-z0-9_.@*-])(\.\./)?[A-Za-z0-9_.@-]+(/[A-Za-z0-9_.@*…{}<>$-]+)+' "$md" |
    grep -E '^(\.\./)?(cmd|internal|web|docs|scripts|deploy|api|testdata|\.ci|\.github)/|\.(go|ts|tsx|mjs|js|json|sql|sh|yaml|yml|md|css|html)$' |
    grep -vE '^(https?|www\.)' | sort -u)
  if grep -nE 'spec §|§ ?[0-9]|[Ii]ssue #?[0-9]+|design\.md' "$md"; then
    echo "$md: a section or issue reference (state the rule in words)"
    bad=1
  fi
done < <(git ls-files -z '*.md')
exit $bad
