/**
 * Connection flags (each also an environment variable) -> the core client's configuration.
 * Route settings come from the core's DEFAULT_ROUTES, so a new setting there becomes a flag here.
 */
import { type ClientConfig, DEFAULT_RETRY, DEFAULT_ROUTES, DEFAULT_TIMEOUTS, type RouteSettings } from '@mediagw/core';
import {
  envName,
  flagOrEnv,
  kebabCase,
  type OptionSpec,
  type OptionSpecs,
  parseNumber,
  sourceOf,
  UsageError,
  type Values,
} from './args.js';

const ROUTE_KEYS = Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[];

/** `--video-vendor SEGMENT` ... one per route setting, defaults shown. */
export const routeOptions: OptionSpecs = Object.fromEntries(
  ROUTE_KEYS.map((key) => [
    kebabCase(key),
    {
      type: 'string',
      value: /header/i.test(key) ? 'NAME' : 'SEGMENT',
      env: envName(key),
      help: `route setting (default: ${DEFAULT_ROUTES[key]})`,
    } satisfies OptionSpec,
  ]),
);

export const connectionOptions: OptionSpecs = {
  'base-url': {
    type: 'string',
    value: 'URL',
    env: envName('baseUrl'),
    help: 'the gateway base address, http(s)://host[:port][/prefix] (required)',
  },
  'api-key': {
    type: 'string',
    value: 'KEY',
    env: envName('apiKey'),
    help: 'the gateway API key (required; prefer the variable: flags show in process lists)',
  },
  ...routeOptions,
  timeout: {
    type: 'string',
    value: 'SECONDS',
    env: envName('timeout'),
    help: `give up after this long in total, retries included (default ${DEFAULT_TIMEOUTS.totalMs / 1000})`,
  },
  retries: {
    type: 'string',
    value: 'N',
    env: envName('retries'),
    help: `retries on 429, 503 and refused connections, never after a task may exist (default ${DEFAULT_RETRY.retries})`,
  },
};

/** The API key as given (flag or environment), for scrubbing output before anything is parsed. */
export function apiKeyOf(values: Values, env: NodeJS.ProcessEnv): string | undefined {
  return flagOrEnv(values, 'api-key', connectionOptions['api-key']!, env);
}

/** Route settings given by flag or environment (unset ones keep the core's defaults). */
export function readRoutes(values: Values, env: NodeJS.ProcessEnv): Partial<RouteSettings> {
  const routes: Partial<RouteSettings> = {};
  for (const key of ROUTE_KEYS) {
    const flag = kebabCase(key);
    const value = flagOrEnv(values, flag, routeOptions[flag]!, env);
    if (value !== undefined) routes[key] = value;
  }
  return routes;
}

export interface Connection {
  client: ClientConfig;
  /** Total time allowed, for the call and any download. */
  timeoutMs: number | undefined;
}

export function readConnection(values: Values, env: NodeJS.ProcessEnv): Connection {
  const read = (name: string) => flagOrEnv(values, name, connectionOptions[name]!, env);
  const label = (name: string) => sourceOf(values, name, connectionOptions[name]!);

  const baseUrl = read('base-url');
  if (!baseUrl) {
    throw new UsageError(
      `no gateway address: give --base-url or ${connectionOptions['base-url']!.env}`,
      'To try without a gateway, start one with: mediagw emulator',
    );
  }
  const apiKey = read('api-key');
  if (!apiKey) {
    throw new UsageError(`no API key: give ${connectionOptions['api-key']!.env} (or --api-key)`);
  }
  const routes = readRoutes(values, env);
  const timeout = read('timeout');
  const retries = read('retries');
  const timeoutMs =
    timeout === undefined ? undefined : Math.round(parseNumber(timeout, label('timeout'), { min: 0.001 }) * 1000);
  return {
    client: {
      baseUrl,
      apiKey,
      ...routes,
      // A long --timeout also lifts the wait for the answer's headers (text-to-video answers when done).
      ...(timeoutMs === undefined
        ? {}
        : { timeouts: { totalMs: timeoutMs, headersMs: Math.max(DEFAULT_TIMEOUTS.headersMs, timeoutMs) } }),
      ...(retries === undefined
        ? {}
        : { retry: { retries: parseNumber(retries, label('retries'), { integer: true, min: 0 }) } }),
    },
    timeoutMs,
  };
}
