#!/usr/bin/env bash
# The node in n8n queue mode: Redis and PostgreSQL from Debian's packages (installed by .ci/run,
# or here if missing), n8n main + two workers + one webhook processor, all sharing the user folder
# with the installed package. See queue.mjs. Exit 1 on any FAIL.
set -euo pipefail
if ! command -v redis-server >/dev/null || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "n8n-queue: installing redis-server and postgresql from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server postgresql >/dev/null
fi
source "$(dirname "$0")/lib/prepare.sh"
cd "$here"
step_lock "$here/.work/queue"
trap 'kill_leftovers "$here/.work/queue"' EXIT
node queue.mjs 9>&-
