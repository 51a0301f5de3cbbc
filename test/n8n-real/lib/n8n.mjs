// n8n processes of a given role (single instance, queue-mode main, worker, webhook processor),
// from the one n8n install in test/n8n-real/node_modules, each with its own ports and log file.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, poll } from './util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** test/n8n-real */
export const N8N_REAL_DIR = join(here, '..');
/** n8n's own entry script, run with this driver's Node (24) so the pid is n8n itself. */
export const N8N_BIN = join(N8N_REAL_DIR, 'node_modules/n8n/bin/n8n');
/** A fixed key: every process of one instance must share it; tests only. */
export const ENCRYPTION_KEY = 'mediagw-ci-fixed-encryption-key-not-a-secret';

/**
 * The environment every n8n process gets. `userFolder` holds `.n8n` (config, nodes/, SQLite).
 * Everything that phones home is off. n8n 2.41 always starts its JS task runner (internal mode,
 * a child process; N8N_RUNNERS_ENABLED is deprecated: "Remove this environment variable; it is no
 * longer needed"), so each process needs its own task-broker port (5679 otherwise: collisions).
 * Logs are JSON lines (timestamps, execution ids in the metadata). `fileAccess`: the one folder
 * Read/Write Files may use (N8N_RESTRICT_FILE_ACCESS_TO).
 */
export function baseEnv({ userFolder, webhookUrl, logDir, name, fileAccess, extra = {} }) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_HOST: '127.0.0.1',
    N8N_SECURE_COOKIE: 'false',
    N8N_WEBHOOK_URL: webhookUrl,
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    N8N_LOG_FORMAT: 'json',
    N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
    // One event log per process (they share the user folder).
    N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: join(logDir, `events-${name}.log`),
    // The process's name, readable in expressions as $env.MGW_PROCESS: a workflow can record in
    // its own execution data which process ran it (the queue step tells workers apart this way).
    MGW_PROCESS: name,
    N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
    // The folder Read/Write Files may use (the examples' images); n8n's default is ~/.n8n-files.
    ...(fileAccess ? { N8N_RESTRICT_FILE_ACCESS_TO: fileAccess } : {}),
    ...extra,
  };
}

/** Environment for every process of a queue-mode instance (shared DB, Redis, binary mode). */
export function queueEnv({ postgres, redis, binaryDataMode }) {
  return {
    EXECUTIONS_MODE: 'queue',
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: postgres.host,
    DB_POSTGRESDB_PORT: String(postgres.port),
    DB_POSTGRESDB_DATABASE: postgres.database,
    DB_POSTGRESDB_USER: postgres.user,
    DB_POSTGRESDB_PASSWORD: 'trust-auth-on-loopback',
    // n8n's default pool is 2 connections per process. Under a burst (500 notifications, 16 at a
    // time, on a busy 2-core machine) the webhook processor then waited past the 20 s connection
    // timeout and answered 500 "There was a problem executing the workflow" or 503 "Database is
    // not ready!" to a third of the deliveries, which the gateway does not retry.
    DB_POSTGRESDB_POOL_SIZE: '10',
    QUEUE_BULL_REDIS_HOST: redis.host,
    QUEUE_BULL_REDIS_PORT: String(redis.port),
    // Manual runs on workers too (n8n 2.41 deprecates running them on main in queue mode).
    OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
    // Left unset, n8n picks `database` in queue mode; set only to test another mode.
    ...(binaryDataMode ? { N8N_DEFAULT_BINARY_DATA_MODE: binaryDataMode } : {}),
  };
}

const COMMANDS = {
  single: ['start'],
  main: ['start'],
  webhook: ['webhook'],
  worker: ['worker'],
};

/**
 * Starts one n8n process and waits until it is ready: `/healthz/readiness` on its port (main,
 * single, webhook) or on its health-check port (worker). Throws with the log's tail if it exits
 * first or is not ready in time.
 *
 * @param {import('./processes.mjs').Supervisor} supervisor
 * @param {{role: 'single'|'main'|'worker'|'webhook', name: string, env: object, port?: number,
 *   concurrency?: number, readyTimeoutMs?: number}} options `env` from baseEnv (+ queueEnv);
 *   `port` when it must be known beforehand (the address in N8N_WEBHOOK_URL), else a free one
 */
export async function startN8n(supervisor, { role, name, env, port: wanted, concurrency, readyTimeoutMs = 120_000 }) {
  const port = wanted ?? (await freePort());
  const brokerPort = await freePort();
  const healthPort = role === 'worker' ? await freePort() : undefined;
  mkdirSync(env.N8N_USER_FOLDER, { recursive: true });
  const fullEnv = {
    ...env,
    N8N_PORT: String(port),
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    ...(role === 'worker'
      ? {
          QUEUE_HEALTH_CHECK_ACTIVE: 'true',
          QUEUE_HEALTH_CHECK_PORT: String(healthPort),
          N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
        }
      : {}),
  };
  const args = [N8N_BIN, ...COMMANDS[role]];
  if (role === 'worker' && concurrency) args.push(`--concurrency=${concurrency}`);
  const started = Date.now();
  const proc = supervisor.spawn(name, process.execPath, args, { env: fullEnv, cwd: env.N8N_USER_FOLDER });
  const url = `http://127.0.0.1:${port}`;
  const readiness = `http://127.0.0.1:${healthPort ?? port}/healthz/readiness`;
  await poll(
    async () => {
      if (!proc.running) {
        throw Object.assign(new Error(`n8n ${role} "${name}" exited (${proc.exitCode ?? proc.exitSignal})`), {
          fatal: true,
        });
      }
      const response = await fetch(readiness, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return response.status === 200;
    },
    { what: `n8n ${role} "${name}" at ${readiness}`, timeoutMs: readyTimeoutMs, intervalMs: 250 },
  ).catch((error) => {
    throw new Error(`${error.message}\n--- ${proc.logFile} (tail) ---\n${proc.log(3000)}`);
  });
  return { role, name, port, brokerPort, healthPort, url, proc, env: fullEnv, readyMs: Date.now() - started };
}
