/**
 * `--help` text, rendered from the commands' own option specs (so help cannot drift from parsing),
 * with commands shown in the form the user runs (`mediagw`, or `npm run -s mediagw --`).
 */
import type { OptionSpec } from './args.js';
import type { Command } from './command.js';
import { EXIT_MEANINGS } from './exit-codes.js';

const COLUMN = 34;

function optionLine(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '';
  const left = `  ${short}--${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? ' ...' : ''}`;
  const env = spec.env ? ` [${spec.env}]` : '';
  const text = `${spec.help}${env}`;
  return left.length < COLUMN ? `${left.padEnd(COLUMN)}${text}` : `${left}\n${' '.repeat(COLUMN)}${text}`;
}

/** An example written with `mediagw`, in the user's form. */
export const asRun = (line: string, prog: string) => line.replace(/^mediagw\b/, prog);

export function commandHelp(command: Command, prog: string): string {
  const lines = [`Usage: ${prog} ${command.name} ${command.usage}`, '', command.description];
  for (const section of command.sections) {
    lines.push('', `${section.title}:`);
    for (const [name, spec] of Object.entries(section.options)) lines.push(optionLine(name, spec));
  }
  if (command.examples.length > 0) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${asRun(e, prog)}`));
  if (command.callsGateway) lines.push('', `Exit codes: see ${prog} --help.`);
  return lines.join('\n');
}

export function exitCodesHelp(): string[] {
  return EXIT_MEANINGS.map(([code, meaning]) => `  ${code}  ${meaning}`);
}

export function mainHelp(commands: readonly Command[], version: string, prog: string): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    `mediagw ${version}: run media gateway operations from the command line, or try them on a local emulator.`,
    '',
    `Usage: ${prog} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    `Run "${prog} <command> --help" for its options. Also: ${prog} --version, ${prog} --help.`,
    '',
    'Exit codes:',
    ...exitCodesHelp(),
    '',
    `Try it with no gateway and no key: ${prog} demo`,
  ].join('\n');
}
