#!/usr/bin/env bash
# The node as builders meet it, in n8n's editor: `n8n start` (SQLite) with the packed node, the
# emulator, and Debian's Chromium (headless) driven by playwright-core (test/n8n-real's
# package.json; no browser download). Nodes panel, every operation's panel, the trigger, the
# credential dialog and its Test, the examples, icons in light and dark themes, console errors.
# Screenshots under .work/browser/screenshots/. See browser.mjs. Exit 1 on any FAIL.
set -euo pipefail
if ! command -v "${MGW_CHROMIUM:-/usr/bin/chromium}" >/dev/null; then
  echo "n8n-browser: installing chromium from Debian's packages"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
source "$(dirname "$0")/lib/prepare.sh"
cd "$here"
step_lock "$here/.work/browser"
trap 'kill_leftovers "$here/.work/browser"' EXIT
node browser.mjs 9>&-
