// Redis and PostgreSQL from Debian's packages, started by the step itself on loopback with
// random free ports and data under the step's work folder, supervised like every other process.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, poll } from './util.mjs';

const run = promisify(execFile);

/** Sends PING over RESP and resolves true on +PONG. */
function redisPing(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer.includes('\r\n')) {
        socket.end();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

/** redis-server in the foreground, no persistence, loopback only. */
export async function startRedis(supervisor, { dir, binary = 'redis-server' } = {}) {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const proc = supervisor.spawn('redis', binary, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'yes',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
  ]);
  await poll(
    async () => {
      if (!proc.running)
        throw new Error(`redis-server exited (${proc.exitCode ?? proc.exitSignal}): ${proc.log(2000)}`);
      return redisPing(port);
    },
    { what: 'redis-server to answer PING', timeoutMs: 20_000, intervalMs: 100 },
  );
  return { host: '127.0.0.1', port, proc, stop: () => proc.stop({ graceMs: 5000 }) };
}

/** The newest Debian PostgreSQL server's bin folder (MGW_PG_BIN overrides). */
export function postgresBin() {
  if (process.env.MGW_PG_BIN) return process.env.MGW_PG_BIN;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin/postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server under ${base}: apt-get install postgresql`);
  return join(base, versions[0], 'bin');
}

async function idOf(user) {
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map(async (flag) => Number((await run('id', [flag, user])).stdout.trim())),
  );
  return { uid, gid };
}

/** Can `other` users walk down to `path`? (Postgres runs as its own user when we are root.) */
function traversable(path) {
  for (let p = path; p !== dirname(p); p = dirname(p)) {
    if (existsSync(p) && (statSync(p).mode & 0o001) === 0) return false;
  }
  return true;
}

/**
 * initdb + postgres (foreground, as the `postgres` user when we are root: it refuses to run as
 * root), trust auth on loopback, superuser and database `n8n`. `dir` holds the data folder.
 */
export async function startPostgres(supervisor, { dir, user = 'n8n', database = 'n8n' } = {}) {
  const bin = postgresBin();
  const asRoot = userInfo().uid === 0;
  const owner = asRoot ? await idOf('postgres') : { uid: undefined, gid: undefined };
  let base = dir;
  if (asRoot && !traversable(dirname(dir))) {
    // The postgres user cannot reach the work folder: keep the data in a temp folder instead.
    base = mkdtempSync(join(tmpdir(), 'mgw-pg-'));
  }
  mkdirSync(base, { recursive: true });
  const data = join(base, 'data');
  // The socket folder: short (unix socket paths are limited to ~107 bytes).
  const socketDir = join(base, 'sock').length < 80 ? join(base, 'sock') : mkdtempSync(join(tmpdir(), 'mgw-pgs-'));
  mkdirSync(socketDir, { recursive: true });
  if (asRoot) for (const p of [base, socketDir]) chownSync(p, owner.uid, owner.gid);

  const opts = { uid: owner.uid, gid: owner.gid, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
  await run(
    join(bin, 'initdb'),
    ['-D', data, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'],
    opts,
  ).catch((error) => {
    throw new Error(`initdb failed: ${error.stderr || error.message}`);
  });
  const port = await freePort();
  const proc = supervisor.spawn(
    'postgres',
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      socketDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { ...opts, stopSignal: 'SIGINT' }, // SIGINT: fast shutdown (SIGTERM waits for clients)
  );
  const client = (name) => join(bin, name);
  await poll(
    async () => {
      if (!proc.running) throw new Error(`postgres exited (${proc.exitCode ?? proc.exitSignal}): ${proc.log(2000)}`);
      await run(client('pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres']);
      return true;
    },
    { what: 'postgres to accept connections', timeoutMs: 30_000, intervalMs: 200 },
  );
  await run(client('createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, database]);

  /** Runs SQL, returns rows as arrays of strings (psql -At, "|" between columns). */
  const query = async (sql) => {
    const { stdout } = await run(
      client('psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('|'));
  };
  return {
    host: '127.0.0.1',
    port,
    user,
    database,
    dataDir: data,
    version: (await run(join(bin, 'postgres'), ['--version'])).stdout.trim(),
    proc,
    query,
    stop: () => proc.stop({ graceMs: 10_000 }),
  };
}
