/** `mediagw emulator`: a local stand-in for the gateway until SIGINT/SIGTERM. */
import type { EmulatorOptions } from '@mediagw/emulator';
import { type OptionSpecs, parseNumber, UsageError, type Values } from '../args.js';
import { type Command, commonOptions } from '../command.js';
import { readRoutes, routeOptions } from '../connection.js';

const serverOptions: OptionSpecs = {
  port: { type: 'string', value: 'N', help: 'TCP port (default 0: any free port; the URL is printed)' },
  host: { type: 'string', value: 'HOST', help: 'interface to listen on (default 127.0.0.1)' },
  'api-key': { type: 'string', value: 'KEY', help: 'accept only this key (default: any non-empty key)' },
  'forbidden-key': { type: 'string', multiple: true, value: 'KEY', help: 'answer this key with 403; repeatable' },
  'max-upload-bytes': { type: 'string', value: 'N', help: 'largest upload accepted (default 1 GiB)' },
  'notify-retries': { type: 'string', value: 'N', help: 'notifyHook delivery retries (default 3)' },
  fault: {
    type: 'string',
    value: 'SPEC',
    help: 'server-wide fault, as the x-emulator-fault header: "status=429; retry-after=1; times=1"',
  },
};

const number = (values: Values, name: string) =>
  typeof values[name] === 'string'
    ? parseNumber(values[name] as string, `--${name}`, { integer: true, min: 0 })
    : undefined;

/** Flags -> emulator options; route settings take the same flags and variables as the client. */
export async function emulatorOptions(values: Values, env: NodeJS.ProcessEnv): Promise<EmulatorOptions> {
  const { parseFaultHeader } = await import('@mediagw/emulator');
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
    apiKey: str('api-key'),
    forbiddenKeys: (values['forbidden-key'] as string[] | undefined) ?? [],
    routes: readRoutes(values, env),
    maxUploadBytes: number(values, 'max-upload-bytes'),
    notifyRetries: number(values, 'notify-retries'),
    fault,
  };
}

export const emulatorCommand: Command = {
  name: 'emulator',
  summary: 'start a local gateway emulator (no account, no network) until Ctrl+C',
  usage: '[--port N] [--host HOST] [--api-key KEY] [options]',
  description:
    'Starts the gateway emulator and prints its base URL on stdout (a description of its endpoints goes ' +
    'to stderr). Point the other commands at it with --base-url or MEDIAGW_BASE_URL. Stops cleanly on ' +
    'SIGINT or SIGTERM (exit 0). Route settings read the same variables as the client, so both agree.',
  sections: [
    { title: 'Server', options: serverOptions },
    { title: 'Routes (flag or environment variable)', options: routeOptions },
    { title: 'Other', options: commonOptions },
  ],
  examples: [
    'mediagw emulator --port 8787',
    'mediagw emulator --port 8787 --api-key test-key --forbidden-key revoked-key',
    'mediagw emulator --port 8787 --fault "status=503; times=1"',
  ],
  callsGateway: false,
  async run(values, context) {
    // Loaded on demand: the server stack is not needed by the gateway commands.
    const { formatEmulatorBanner, startEmulator } = await import('@mediagw/emulator');
    const options = await emulatorOptions(values, context.io.env);
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
    context.out.err(formatEmulatorBanner(emulator));
    context.out.err('Stop with Ctrl+C.');
    const signal = await context.io.untilStopped();
    await emulator.close();
    context.out.err(`mediagw emulator stopped (${signal}).`);
    return 0;
  },
};
