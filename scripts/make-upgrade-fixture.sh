#!/usr/bin/env bash
# make-upgrade-fixture.sh COMMIT [NAME]
#
# Makes the upgrade fixture of a release: a database made by that
# release's own code, with members, sessions, saved cards, points, passes,
# coupons, a pending payment and mails in it, for SQLite
# (members.sqlite.gz) and PostgreSQL (members.sql, plain INSERTs), with a
# manifest.json of what the upgrade test checks. It checks out COMMIT in a
# temporary git worktree, copies this tree's fixture maker
# (internal/upgrade/makefixture_test.go, fixture_test.go) into it, builds
# and runs it there against the PostgreSQL at MEMBERS_TEST_PG, and writes
# testdata/upgrade/NAME/ (NAME: COMMIT's short hash). Then
# `go test ./internal/upgrade/` migrates it with the current code.
# Run it for each release, before the next migration lands
# (docs/testing.md, "Upgrade fixtures").
set -euo pipefail

commit=${1:?usage: make-upgrade-fixture.sh COMMIT [NAME]}
repo=$(git rev-parse --show-toplevel)
full=$(git -C "$repo" rev-parse --verify "$commit^{commit}")
name=${2:-$(git -C "$repo" rev-parse --short=7 "$full")}
out="$repo/testdata/upgrade/$name"

tmp=$(mktemp -d)
cleanup() {
	git -C "$repo" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

git -C "$repo" worktree add --quiet --detach "$tmp/src" "$full" >/dev/null
mkdir -p "$tmp/src/internal/upgrade"
cp "$repo/internal/upgrade/makefixture_test.go" "$repo/internal/upgrade/fixture_test.go" "$tmp/src/internal/upgrade/"

rm -rf "$out"
mkdir -p "$out"
echo "make-upgrade-fixture: building and running release $name ($full) in $tmp/src"
(cd "$tmp/src" && UPGRADE_FIXTURE_OUT="$out" UPGRADE_FIXTURE_RELEASE="$name" \
	go test -count=1 -tags upgradefixture -run '^TestMakeUpgradeFixture$' ./internal/upgrade/)
chmod 0644 "$out"/*/*
du -ah "$out"
