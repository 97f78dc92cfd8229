#!/usr/bin/env bash
# Regenerates services/web/static/vendor/ from npm: the official NATS client for browsers
# (@nats-io/nats-core, its `wsconnect`) bundled into one ES module with its licences.
# Needs node and npm here, at vendoring time only; people who run tabletop never build anything.
#   scripts/vendor-js.sh            the pinned versions below
#   NATS_CORE=3.5.0 scripts/vendor-js.sh   another version
set -euo pipefail
NATS_CORE="${NATS_CORE:-3.4.0}"
ESBUILD="${ESBUILD:-0.28.2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/services/web/static/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "@nats-io/nats-core@$NATS_CORE" "esbuild@$ESBUILD"
cat > entry.js <<'JS'
export { wsconnect, headers, errors } from "@nats-io/nats-core";
JS
npx esbuild entry.js --bundle --format=esm --target=es2020 --legal-comments=none \
  --outfile=nats.js
mkdir -p "$out"
{
  echo "// @nats-io/nats-core $NATS_CORE (with its dependencies, listed in VERSIONS.txt), bundled"
  echo "// by scripts/vendor-js.sh with esbuild $ESBUILD. Apache-2.0 (LICENSE-nats.txt; tweetnacl: LICENSE-tweetnacl.txt)."
  cat nats.js
} > "$out/nats.js"
cp node_modules/@nats-io/nats-core/LICENSE "$out/LICENSE-nats.txt"
cp node_modules/tweetnacl/LICENSE "$out/LICENSE-tweetnacl.txt"
{
  echo "Vendored by scripts/vendor-js.sh; regenerate with it, do not edit by hand."
  for pkg in @nats-io/nats-core @nats-io/nkeys @nats-io/nuid tweetnacl; do
    if [ -f "node_modules/$pkg/package.json" ]; then
      node -e 'const p=require(process.argv[1]); console.log(`${p.name} ${p.version} ${p.license}`)' \
        "$work/node_modules/$pkg/package.json"
    fi
  done
} > "$out/VERSIONS.txt"
echo "vendored into $out:"
ls -l "$out"
