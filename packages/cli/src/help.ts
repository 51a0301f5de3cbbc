/** `--help` text, rendered from the commands' own option specs (so help cannot drift from parsing). */
import type { OptionSpec } from './args.js';
import type { Command } from './command.js';
import { EXIT } from './exit-codes.js';

const COLUMN = 34;

function optionLine(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '';
  const left = `  ${short}--${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? ' ...' : ''}`;
  const env = spec.env ? ` [${spec.env}]` : '';
  const text = `${spec.help}${env}`;
  return left.length < COLUMN ? `${left.padEnd(COLUMN)}${text}` : `${left}\n${' '.repeat(COLUMN)}${text}`;
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: mediagw ${command.name} ${command.usage}`, '', command.description];
  for (const section of command.sections) {
    lines.push('', `${section.title}:`);
    for (const [name, spec] of Object.entries(section.options)) lines.push(optionLine(name, spec));
  }
  if (command.examples.length > 0) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

export const EXIT_CODES_HELP = [
  `  ${EXIT.ok}  success`,
  `  ${EXIT.usage}  invalid input or usage (nothing was sent)`,
  `  ${EXIT.gateway}  the gateway refused or failed (HTTP error, failure envelope, unreadable answer)`,
  `  ${EXIT.unreachable}  the gateway could not be reached or timed out`,
];

export function mainHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    `mediagw ${version}: run media gateway operations from the command line, or try them on a local emulator.`,
    '',
    'Usage: mediagw <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run "mediagw <command> --help" for its options. Also: mediagw --version, mediagw --help.',
    '',
    'Exit codes:',
    ...EXIT_CODES_HELP,
    '',
    'Try it with no gateway and no key: mediagw demo',
  ].join('\n');
}
