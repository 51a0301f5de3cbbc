#!/usr/bin/env bash
# End-to-end in a REAL n8n 2.41.1: installs n8n here (own package.json and lockfile, outside the
# root workspace; skipped when the lockfile is unchanged), then run.mjs packs the node, installs
# the tarball where n8n loads community packages, starts the emulator, imports the examples and
# runs each with `n8n execute`. Prints one PASS/FAIL line per check; exit 1 on any failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# n8n 2.41 needs Node 24: the repo's node@24 binary first on PATH (also for the sqlite3 build).
export PATH="$root/node_modules/.bin:$PATH"
case "$(node --version)" in v24.*) ;; *) echo "FAIL n8n-real: Node 24 is not first on PATH ($(node --version))"; exit 1 ;; esac

cd "$here"
mkdir -p .work
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -x node_modules/.bin/n8n ] || [ "$(cat .work/installed.sha256 2>/dev/null)" != "$lock_sum" ]; then
  echo "n8n-real: installing n8n (about 3 minutes)"
  # --ignore-scripts: several native builds try to download prebuilt binaries, which fails here.
  # npm ci refuses this lockfile: the registry here lacks some optional platform binaries of
  # msgpackr-extract, so the lock cannot list them. npm install follows the lock all the same.
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error
  # n8n's default database needs sqlite3; build it from source for this Node.
  npm rebuild sqlite3 --build-from-source --loglevel=error
  # npm install may rewrite the lock (registry gaps): stamp what is installed now.
  sha256sum package-lock.json | cut -d' ' -f1 > .work/installed.sha256
fi

# The package under test and the emulator, built from this checkout (turbo caches).
(cd "$root" && TURBO_TELEMETRY_DISABLED=1 npx --no turbo run build --filter=n8n-nodes-mediagw --filter=@mediagw/emulator --output-logs=errors-only)
exec node run.mjs
