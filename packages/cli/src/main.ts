/** The `mediagw` entry: picks the command, parses its flags, runs it, maps failures to exit codes. */
import { readFileSync } from 'node:fs';
import { OPERATIONS, type Operations } from '@mediagw/core';
import { closest, parseOptions, UsageError } from './args.js';
import { allOptions, type Command } from './command.js';
import { demoCommand } from './commands/demo.js';
import { emulatorCommand } from './commands/emulator.js';
import { API_KEY_ENV } from './connection.js';
import { EXIT } from './exit-codes.js';
import { commandHelp, mainHelp } from './help.js';
import { operationCommand } from './operation.js';
import { type Io, Output } from './output.js';

export interface MainOptions {
  /** The operations offered as commands (default: the core's OPERATIONS); a caller may add its own. */
  operations?: Operations;
}

/** The commands: one per operation, then the emulator and the demo. */
export function commandsFor(operations: Operations = OPERATIONS): Command[] {
  const commands = [...operations.map(operationCommand), emulatorCommand, demoCommand];
  const names = commands.map((c) => c.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`two commands are named ${twice}`);
  return commands;
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** How the user runs the CLI, for hints: through the repository's npm script, or as the installed `mediagw`. */
export function invocation(env: NodeJS.ProcessEnv): string {
  const viaScript = 'npm run -s mediagw --';
  if (env.npm_lifecycle_event === 'mediagw') return viaScript;
  // Another script of a package that has a `mediagw` script (`npm run demo` here): suggest that script.
  if (env.npm_package_json) {
    try {
      const pkg = JSON.parse(readFileSync(env.npm_package_json, 'utf8')) as { scripts?: Record<string, string> };
      if (pkg.scripts?.mediagw) return viaScript;
    } catch {
      // Unreadable: the plain form.
    }
  }
  return 'mediagw';
}

function untilSignal(done?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const off = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    const stop = (signal: string) => {
      off();
      resolve(signal);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    done?.addEventListener('abort', off, { once: true });
  });
}

/** Every key the command line or environment carries, known before parsing so nothing can echo it. */
function secretsIn(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const secrets = [env[API_KEY_ENV] ?? ''];
  argv.forEach((arg, i) => {
    if (arg === '--api-key') secrets.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key=')) secrets.push(arg.slice('--api-key='.length));
  });
  return secrets.filter(Boolean);
}

export async function main(argv: readonly string[], io: Partial<Io> = {}, options: MainOptions = {}): Promise<number> {
  const streams: Io = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    untilStopped: io.untilStopped ?? untilSignal,
  };
  const prog = invocation(streams.env);
  const out = new Output(streams, secretsIn(argv, streams.env), prog);
  const commands = commandsFor(options.operations);
  const [first, ...rest] = argv;

  if (first === undefined) {
    out.errText(mainHelp(commands, version(), prog));
    return EXIT.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = commands.find((c) => c.name === rest[0]);
    out.outText(topic ? commandHelp(topic, prog) : mainHelp(commands, version(), prog));
    return EXIT.ok;
  }
  if (first === '--version') {
    out.out(version());
    return EXIT.ok;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) {
    const names = commands.map((c) => c.name);
    const guess = closest(first, names);
    const message = `unknown command "${first}"${guess ? ` (did you mean ${guess}?)` : ''}`;
    const error = new UsageError(message, `Commands: ${names.join(', ')}. See: ${prog} --help`);
    return out.fail(error, { json: rest.includes('--json') });
  }
  const specs = allOptions(command);
  // Before parsing succeeds, --json and --debug are read from the words themselves.
  const context = { command: command.name, callsGateway: command.callsGateway, op: command.op };
  const asked = (flag: string) => specs[flag] !== undefined && rest.includes(`--${flag}`);
  let values: ReturnType<typeof parseOptions>;
  try {
    values = parseOptions(rest, specs, `See: ${prog} ${command.name} --help`);
  } catch (error) {
    return out.fail(error, { ...context, debug: asked('debug'), json: asked('json') });
  }
  if (values.help === true) {
    out.outText(commandHelp(command, prog));
    return EXIT.ok;
  }
  const debug = values.debug === true;
  try {
    return await command.run(values, { io: streams, out, debug });
  } catch (error) {
    return out.fail(error, { ...context, debug, json: values.json === true });
  }
}
