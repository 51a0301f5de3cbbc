#!/usr/bin/env bash
# The node in a running n8n server (`n8n start`, SQLite): activated Media Gateway Trigger fed by
# the emulator's blend notifications, token refusals, 50 text-to-video executions through a
# production webhook, and the sentinel key nowhere. See server.mjs. Exit 1 on any FAIL.
set -euo pipefail
source "$(dirname "$0")/lib/prepare.sh"
cd "$here"
step_lock "$here/.work/server"
trap 'kill_leftovers "$here/.work/server"' EXIT
node server.mjs 9>&-
