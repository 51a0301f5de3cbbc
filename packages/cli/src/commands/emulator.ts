/** `mediagw emulator`: a local stand-in for the gateway until SIGINT/SIGTERM. */
import { field } from '@mediagw/core';
import type { EmulatorOptions } from '@mediagw/emulator';
import { type OptionSpecs, UsageError, type Values } from '../args.js';
import { type Command, commonOptions } from '../command.js';
import { readRoutes, routeOptions } from '../connection.js';
import { loadEmulator } from '../emulator-module.js';
import { readSetting, settingOption } from '../fields.js';

const NUMBERS = {
  port: field.integer({ min: 0, max: 65535, description: 'TCP port (default 0: any free port; the URL is printed)' }),
  'max-upload-bytes': field.integer({ min: 1, description: 'largest upload accepted (default 1 GiB)' }),
  'notify-retries': field.integer({ min: 0, description: 'notifyHook delivery retries (default 3)' }),
  'notify-progress': field.integer({
    min: 0,
    description: 'blend: progress notifications (IN_PROGRESS) before the final one (default 0)',
  }),
};

const serverOptions: OptionSpecs = {
  port: settingOption(NUMBERS.port),
  host: { type: 'string', value: 'HOST', help: 'interface to listen on (default 127.0.0.1; 0.0.0.0 for every one)' },
  'public-url': {
    type: 'string',
    value: 'URL',
    help: 'the base URL callers elsewhere reach it at, used in produced-file URLs (default: the address it listens on), e.g. --host 0.0.0.0 --public-url http://host.docker.internal:8787 for n8n in Docker',
  },
  'api-key': { type: 'string', value: 'KEY', help: 'accept only this key (default: any non-empty key)' },
  'forbidden-key': { type: 'string', multiple: true, value: 'KEY', help: 'answer this key with 403; repeatable' },
  'max-upload-bytes': settingOption(NUMBERS['max-upload-bytes'], { value: 'BYTES' }),
  'notify-retries': settingOption(NUMBERS['notify-retries']),
  'notify-progress': settingOption(NUMBERS['notify-progress']),
  fault: {
    type: 'string',
    value: 'SPEC',
    help: 'a fault on every request, written as the x-emulator-fault header: "status=429; retry-after=1; times=1", drop, truncate, sparse, envelope-failure, latency-ms=N, slow-body-ms=N, blend-id-as-number, notify-progress=N, notify-failure, notify-repeat=N, notify-hold (never notifies: the caller times out)',
  },
};

const number = (values: Values, name: keyof typeof NUMBERS) =>
  typeof values[name] === 'string' ? readSetting(NUMBERS[name], values[name] as string, `--${name}`) : undefined;

/** Flags -> emulator options; route settings take the same flags and variables as the client. */
export async function emulatorOptions(values: Values, env: NodeJS.ProcessEnv): Promise<EmulatorOptions> {
  const { parseFaultHeader } = await loadEmulator('emulator');
  let fault: EmulatorOptions['fault'];
  if (typeof values.fault === 'string') {
    try {
      fault = parseFaultHeader(values.fault);
    } catch (error) {
      throw new UsageError(`--fault: ${(error as Error).message}`);
    }
  }
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  return {
    port: number(values, 'port') ?? 0,
    host: str('host') ?? '127.0.0.1',
    publicUrl: str('public-url'),
    apiKey: str('api-key'),
    forbiddenKeys: (values['forbidden-key'] as string[] | undefined) ?? [],
    routes: readRoutes(values, env),
    maxUploadBytes: number(values, 'max-upload-bytes'),
    notifyRetries: number(values, 'notify-retries'),
    notifyProgress: number(values, 'notify-progress'),
    fault,
  };
}

export const emulatorCommand: Command = {
  name: 'emulator',
  summary: 'start a local gateway emulator (no account, no network) until Ctrl+C',
  usage: '[--port N] [--host HOST] [--public-url URL] [--api-key KEY] [options]',
  description:
    'Starts the gateway emulator and prints its base URL on stdout (a description of its endpoints goes ' +
    'to stderr). Point the other commands at it with --base-url or MEDIAGW_BASE_URL. Stops cleanly on ' +
    'SIGINT or SIGTERM (exit 0). Route settings read the same variables as the client, so both agree.',
  sections: [
    { title: 'Server', options: serverOptions },
    { title: 'Routes (flag or environment variable)', options: routeOptions() },
    { title: 'Other', options: commonOptions },
  ],
  examples: [
    'mediagw emulator --port 8787',
    'mediagw emulator --port 8787 --api-key test-key --forbidden-key revoked-key',
    'mediagw emulator --port 8787 --fault "status=503; times=1"',
    'mediagw emulator --port 8787 --fault sparse',
    'mediagw emulator --host 0.0.0.0 --port 8787 --public-url http://host.docker.internal:8787',
  ],
  callsGateway: false,
  async run(values, context) {
    const options = await emulatorOptions(values, context.io.env);
    const { formatEmulatorBanner, startEmulator } = await loadEmulator('emulator');
    let emulator: Awaited<ReturnType<typeof startEmulator>>;
    try {
      emulator = await startEmulator(options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
        throw new UsageError(
          `cannot listen on ${options.host}:${options.port} (${code})`,
          'Choose another --port or --host.',
        );
      }
      throw error;
    }
    context.out.out(emulator.url);
    context.out.errText(formatEmulatorBanner(emulator));
    if (emulator.publicUrl !== emulator.url) context.out.err(`Produced files are announced at ${emulator.publicUrl}.`);
    context.out.err('Stop with Ctrl+C.');
    const signal = await context.io.untilStopped();
    await emulator.close();
    context.out.err(`mediagw emulator stopped (${signal}).`);
    return 0;
  },
};
