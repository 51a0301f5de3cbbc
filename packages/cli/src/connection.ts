/**
 * Connection flags (each also an environment variable) -> a core client. Route settings are the
 * core's keys (`videoVendor`), spelled `--video-vendor` / `MEDIAGW_VIDEO_VENDOR` by the one rule;
 * an operation command offers the settings its route and auth use. Problems the core finds in the
 * configuration are named by the flag or the variable the value came from (never quoting the key).
 */
import {
  type AnyOperation,
  type ClientConfig,
  createClient,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  DEFAULT_TIMEOUTS,
  field,
  kebabCase,
  MAX_TIMEOUT_MS,
  type MediaGatewayClient,
  type RouteSettings,
  routeSettings,
  ValidationError,
} from '@mediagw/core';
import { envName, flagOrEnv, type OptionSpecs, sourceOf, UsageError, type Values } from './args.js';
import { readSetting, settingOption } from './fields.js';

type RouteKey = keyof RouteSettings;
const ROUTE_KEYS = Object.keys(DEFAULT_ROUTES) as RouteKey[];

/** The route settings an operation uses: its route's segments, and the secret header for that auth. */
export function routeKeysOf(op: AnyOperation): RouteKey[] {
  const keys: RouteKey[] = routeSettings(op.route);
  if (op.auth === 'secret-header') keys.push('secretHeader');
  return keys;
}

/** `--video-vendor SEGMENT` ...: one flag per route setting, defaults shown. */
export function routeOptions(keys: readonly RouteKey[] = ROUTE_KEYS): OptionSpecs {
  return Object.fromEntries(
    keys.map((key) => [
      kebabCase(key),
      {
        type: 'string',
        value: key === 'secretHeader' ? 'NAME' : 'SEGMENT',
        env: envName(key),
        help: `route setting (default: ${DEFAULT_ROUTES[key]})`,
      },
    ]),
  );
}

/** Route settings given by flag or variable (unset ones keep the core's defaults). */
export function readRoutes(values: Values, env: NodeJS.ProcessEnv, keys: readonly RouteKey[] = ROUTE_KEYS) {
  const specs = routeOptions(keys);
  const routes: Partial<RouteSettings> = {};
  for (const key of keys) {
    const value = flagOrEnv(values, kebabCase(key), specs[kebabCase(key)]!, env);
    if (value !== undefined) routes[key] = value;
  }
  return routes;
}

/** The CLI's own numeric settings, declared as the core declares fields (rules, text reading, help). */
export const SETTINGS = {
  timeout: field.number({
    min: 0.001,
    max: MAX_TIMEOUT_MS / 1000,
    description: `give up after this many seconds in total, retries included (default ${DEFAULT_TIMEOUTS.totalMs / 1000}; Node's timers allow at most ~24.8 days)`,
  }),
  retries: field.integer({
    min: 0,
    description: `retries on 429, 503 and refused connections, never after a task may exist (default ${DEFAULT_RETRY.retries})`,
  }),
  maxDownload: field.integer({
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    description: `the most bytes a download may bring when the answer announces no size (default ${DEFAULT_MAX_DOWNLOAD_BYTES}, 2 GiB)`,
  }),
};

const setting = (key: keyof typeof SETTINGS, value: string) =>
  settingOption(SETTINGS[key], { env: envName(key), value });

/** The connection flags of an operation: base URL, key, the route settings it uses, timeout, retries (and the download cap). */
export function connectionOptions(op: AnyOperation): OptionSpecs {
  return {
    'base-url': {
      type: 'string',
      value: 'URL',
      env: envName('baseUrl'),
      help: 'required: the gateway base address, http(s)://host[:port][/prefix]',
    },
    'api-key': {
      type: 'string',
      value: 'KEY',
      env: envName('apiKey'),
      help: 'required: the gateway API key (prefer the variable: flags show in process lists)',
    },
    ...routeOptions(routeKeysOf(op)),
    timeout: setting('timeout', 'SECONDS'),
    retries: setting('retries', 'N'),
    ...(op.file ? { 'max-download': setting('maxDownload', 'BYTES') } : {}),
  };
}

export const API_KEY_ENV = envName('apiKey');

export interface Connection {
  client: MediaGatewayClient;
  /** Total time allowed for the call, and for a download, when given. */
  timeoutMs: number | undefined;
}

/**
 * A client from the flags and variables. Everything the core refuses (an address that is not one,
 * a key with a line break, a bad route segment, a timeout Node cannot time) is a ValidationError
 * naming the flag or variable the value came from.
 */
export function openConnection(values: Values, env: NodeJS.ProcessEnv, op: AnyOperation, prog: string): Connection {
  const specs = connectionOptions(op);
  const read = (name: string) => (specs[name] ? flagOrEnv(values, name, specs[name], env) : undefined);
  const label = (name: string) => (specs[name] ? sourceOf(values, name, specs[name]) : `--${name}`);

  const baseUrl = read('base-url');
  if (!baseUrl) {
    throw new UsageError(
      `no gateway address: give --base-url or ${specs['base-url']!.env}`,
      `To try without a gateway, start one with: ${prog} emulator`,
    );
  }
  const apiKey = read('api-key');
  if (!apiKey) throw new UsageError(`no API key: give ${API_KEY_ENV} (or --api-key)`);
  const routes = readRoutes(values, env, routeKeysOf(op));
  const number = (name: string, key: keyof typeof SETTINGS) => {
    const text = read(name);
    return text === undefined ? undefined : readSetting(SETTINGS[key], text, label(name));
  };
  const timeout = number('timeout', 'timeout');
  const retries = number('retries', 'retries');
  const maxDownload = number('max-download', 'maxDownload');
  const timeoutMs = timeout === undefined ? undefined : Math.max(1, Math.round(timeout * 1000));
  const config: ClientConfig = {
    baseUrl,
    apiKey,
    ...routes,
    // A long --timeout also lifts the wait for the answer's headers (text-to-video answers when done).
    ...(timeoutMs === undefined
      ? {}
      : { timeouts: { totalMs: timeoutMs, headersMs: Math.max(DEFAULT_TIMEOUTS.headersMs, timeoutMs) } }),
    ...(retries === undefined ? {} : { retry: { retries } }),
    maxDownloadBytes: maxDownload ?? DEFAULT_MAX_DOWNLOAD_BYTES,
  };
  try {
    return { client: createClient(config), timeoutMs };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    // The core names settings by key (`apiKey`, `videoVendor`, `timeouts.totalMs`): say where each came from.
    const flagOf = (key: string) => (key.startsWith('timeouts.') ? 'timeout' : kebabCase(key));
    throw new ValidationError(error.issues.map((i) => ({ ...i, field: label(flagOf(i.field)) })));
  }
}
