#!/usr/bin/env bash
# Installs the web toolchain's Node (the version in web/.node-version) and
# npm (web/package.json "packageManager") into .tools/node, from the npm
# registry's own packages: node-<os>-<cpu> (the official binary) and npm.
# Needs only curl or wget and tar, so it also works on a machine without any
# Node. Each tarball is checked against the sha512 the registry states for
# it, as npm does. The Makefile runs this when the machine's node is older
# than the pin's major (docs/architecture.md "Node").
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=$(tr -d ' \t\r\n' < web/.node-version)
npm_version=$(sed -n 's/^ *"packageManager": *"npm@\([^"]*\)".*/\1/p' web/package.json)
[ -n "$node_version" ] || { echo "install-node: web/.node-version is empty" >&2; exit 1; }
[ -n "$npm_version" ] || { echo "install-node: no \"packageManager\": \"npm@…\" in web/package.json" >&2; exit 1; }

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "install-node: no Node package for $(uname -s); install Node ${node_version%%.*} yourself" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) cpu=x64 ;;
  aarch64 | arm64) cpu=arm64 ;;
  *) echo "install-node: no Node package for $(uname -m); install Node ${node_version%%.*} yourself" >&2; exit 1 ;;
esac

registry=${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}
registry=${registry%/}
fetch() { # url file
  if command -v curl >/dev/null; then
    curl -fsSL --retry 3 -o "$2" "$1"
  elif command -v wget >/dev/null; then
    wget -q -O "$2" "$1"
  else
    echo "install-node: needs curl or wget to fetch $1" >&2
    exit 1
  fi
}

dest=.tools/node
mkdir -p .tools
tmp=$(mktemp -d .tools/tmp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# get NAME VERSION: the package's tarball, checked, unpacked into $tmp/NAME.
get() {
  local name=$1 version=$2 integrity want got
  fetch "$registry/$name/$version" "$tmp/$name.json"
  integrity=$(grep -o '"integrity" *: *"sha512-[^"]*"' "$tmp/$name.json" | head -1 | sed 's/.*"sha512-\([^"]*\)"/\1/')
  [ -n "$integrity" ] || { echo "install-node: the registry states no sha512 for $name@$version" >&2; exit 1; }
  echo "install-node: fetching $name@$version"
  fetch "$registry/$name/-/${name##*/}-$version.tgz" "$tmp/$name.tgz"
  want=$integrity
  # sha512sum prints hex; the registry states base64 of the bytes.
  got=$(printf '%b' "$(sha512sum "$tmp/$name.tgz" | cut -d' ' -f1 | sed 's/../\\x&/g')" | base64 -w0)
  [ "$got" = "$want" ] || { echo "install-node: $name@$version does not match the registry's sha512" >&2; exit 1; }
  mkdir -p "$tmp/$name"
  tar -xzf "$tmp/$name.tgz" -C "$tmp/$name" --strip-components=1
}

get "node-$os-$cpu" "$node_version"
get npm "$npm_version"

# The layout of Node's own release: bin/node, lib/node_modules/npm, and
# bin/npm and bin/npx linked to npm's scripts.
mkdir -p "$tmp/out/bin" "$tmp/out/lib/node_modules"
mv "$tmp/node-$os-$cpu/bin/node" "$tmp/out/bin/node"
chmod +x "$tmp/out/bin/node"
touch "$tmp/out/bin/node" # newer than web/.node-version: the Makefile's stamp
mv "$tmp/npm" "$tmp/out/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/out/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/out/bin/npx"
got=$("$tmp/out/bin/node" --version)
[ "$got" = "v$node_version" ] || { echo "install-node: the binary says $got, not v$node_version" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp/out" "$dest"
echo "install-node: Node $node_version and npm $npm_version in $dest"
