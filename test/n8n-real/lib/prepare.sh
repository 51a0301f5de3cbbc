# Sourced by every real-n8n step (run.sh, server.sh, queue.sh, browser.sh): Node 24 first on
# PATH, the one n8n install of test/n8n-real (own package.json and lockfile, outside the root workspace;
# skipped when the lockfile is unchanged), and the node package and emulator built from this
# checkout. Sets $here (test/n8n-real) and $root (the repo).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
# n8n 2.41 needs Node 24: the repo's node@24 binary first on PATH (also for the sqlite3 build).
export PATH="$root/node_modules/.bin:$PATH"
case "$(node --version)" in v24.*) ;; *) echo "FAIL n8n-real: Node 24 is not first on PATH ($(node --version))"; exit 1 ;; esac

mkdir -p "$here/.work"
lock_sum="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [ ! -x "$here/node_modules/.bin/n8n" ] || [ "$(cat "$here/.work/installed.sha256" 2>/dev/null)" != "$lock_sum" ]; then
  echo "n8n-real: installing n8n (about 3 minutes)"
  # --ignore-scripts: several native builds try to download prebuilt binaries, which fails here.
  # npm ci refuses this lockfile: the registry here lacks some optional platform binaries of
  # msgpackr-extract, so the lock cannot list them. npm install follows the lock all the same.
  (cd "$here" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
  # n8n's default database needs sqlite3; build it from source for this Node.
  (cd "$here" && npm rebuild sqlite3 --build-from-source --loglevel=error)
  # npm install may rewrite the lock (registry gaps): stamp what is installed now.
  sha256sum "$here/package-lock.json" | cut -d' ' -f1 > "$here/.work/installed.sha256"
fi

# The package under test and the emulator, built from this checkout (turbo caches).
(cd "$root" && TURBO_TELEMETRY_DISABLED=1 npx --no turbo run build --filter=n8n-nodes-mediagw --filter=@mediagw/emulator --output-logs=errors-only)

# kill_leftovers <work dir>: process groups a driver started and did not stop (it was killed, say).
kill_leftovers() {
  local f
  for f in "$1"/pids/*.pid; do
    [ -e "$f" ] || continue
    kill -KILL -- "-$(cat "$f")" 2>/dev/null && echo "n8n-real: killed leftover $(basename "$f" .pid)"
    rm -f "$f"
  done
  return 0
}

# step_lock <work dir>: one run per step and checkout at a time (a second run would delete the
# first one's work folder and its trap would kill the other's processes). Held until exit.
step_lock() {
  mkdir -p "$(dirname "$1")"
  exec 9>"$1.lock"
  flock -n 9 || { echo "FAIL n8n-real: another run is using $1"; exit 1; }
}
