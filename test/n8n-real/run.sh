#!/usr/bin/env bash
# End-to-end in a REAL n8n 2.41.1: lib/prepare.sh installs n8n here (own package.json and
# lockfile, outside the root workspace; skipped when the lockfile is unchanged), then run.mjs
# packs the node, installs the tarball where n8n loads community packages, starts the emulator,
# imports the examples and runs each with `n8n execute`. Prints one PASS/FAIL line per check;
# exit 1 on any failure.
set -euo pipefail
source "$(dirname "$0")/lib/prepare.sh"
cd "$here"
step_lock "$here/.work/run"
node run.mjs 9>&-
