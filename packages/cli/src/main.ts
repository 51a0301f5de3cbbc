/** The `mediagw` entry: picks the command, parses its flags, runs it, maps failures to exit codes. */
import { readFileSync } from 'node:fs';
import { closest, parseOptions, UsageError } from './args.js';
import { allOptions, type Command } from './command.js';
import { blendCommand } from './commands/blend.js';
import { demoCommand } from './commands/demo.js';
import { emulatorCommand } from './commands/emulator.js';
import { imageToVideoCommand } from './commands/image-to-video.js';
import { textToVideoCommand } from './commands/text-to-video.js';
import { connectionOptions } from './connection.js';
import { EXIT } from './exit-codes.js';
import { commandHelp, mainHelp } from './help.js';
import { type Io, Output } from './output.js';

export const COMMANDS: readonly Command[] = [
  imageToVideoCommand,
  textToVideoCommand,
  blendCommand,
  emulatorCommand,
  demoCommand,
];

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** Every key the command line or environment carries, known before parsing so nothing can echo it. */
function secretsIn(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const secrets = [env[connectionOptions['api-key']!.env!] ?? ''];
  argv.forEach((arg, i) => {
    if (arg === '--api-key') secrets.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key=')) secrets.push(arg.slice('--api-key='.length));
  });
  return secrets.filter(Boolean);
}

export async function main(argv: readonly string[], io: Partial<Io> = {}): Promise<number> {
  const streams: Io = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    untilStopped: io.untilStopped ?? untilSignal,
  };
  const out = new Output(streams, secretsIn(argv, streams.env));
  const [first, ...rest] = argv;

  if (first === undefined) {
    out.err(mainHelp(COMMANDS, version()));
    return EXIT.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    out.out(topic ? commandHelp(topic) : mainHelp(COMMANDS, version()));
    return EXIT.ok;
  }
  if (first === '--version') {
    out.out(version());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) {
    const guess = closest(
      first,
      COMMANDS.map((c) => c.name),
    );
    const message = `unknown command "${first}"${guess ? ` (did you mean ${guess}?)` : ''}`;
    return out.fail(
      new UsageError(message, `Commands: ${COMMANDS.map((c) => c.name).join(', ')}. See: mediagw --help`),
    );
  }
  let values: ReturnType<typeof parseOptions>;
  try {
    values = parseOptions(rest, allOptions(command), `mediagw ${command.name}`);
  } catch (error) {
    return out.fail(error, { command, debug: rest.includes('--debug') });
  }
  if (values.help === true) {
    out.out(commandHelp(command));
    return EXIT.ok;
  }
  const debug = values.debug === true;
  try {
    return await command.run(values, { io: streams, out, debug });
  } catch (error) {
    return out.fail(error, { command, debug });
  }
}
