/**
 * The one factory of operation commands: `mediagw <op.name>` for any operation descriptor, its
 * flags, usage, help and examples derived from the descriptor; running it is `runOperation`.
 */
import type { AnyOperation } from '@mediagw/core';
import type { OptionSpecs } from './args.js';
import { type Command, commonOptions, type OptionSection } from './command.js';
import { connectionOptions } from './connection.js';
import { fieldOptions, flagName, placeholderOf } from './fields.js';
import { runOperation } from './run.js';

const quote = (text: string) => (/^[\w./:@%+-]+$/.test(text) ? text : `"${text}"`);

/** What the command cannot run without: `--image PATH --prompt TEXT` (usage) or `--image photo.png --prompt "..."` (examples). */
function requiredArgs(op: AnyOperation, example: boolean): string[] {
  const args: string[] = [];
  if (op.images) {
    if (example) args.push(...(op.images.many ? ['--image a.png', '--image b.png'] : ['--image photo.png']));
    else args.push(op.images.many ? '--image PATH [--image PATH ...]' : '--image PATH');
  }
  for (const [wire, spec] of Object.entries(op.fields)) {
    const sample = spec.example === undefined ? '"..."' : quote(spec.example);
    if (spec.required) args.push(`--${flagName(wire)} ${example ? sample : placeholderOf(spec)}`);
  }
  return args;
}

function outputOptions(op: AnyOperation): OptionSpecs {
  const file: OptionSpecs = op.file
    ? {
        output: {
          type: 'string',
          value: 'PATH',
          help: `also download the ${op.kind} to this file; checked before anything is sent (never a device, a directory, or an existing file without --overwrite); missing folders are created`,
        },
        overwrite: { type: 'boolean', help: 'let --output replace an existing regular file' },
      }
    : {};
  return {
    ...file,
    json: {
      type: 'boolean',
      help: 'print exactly one JSON object on stdout (integers exact), instead of a summary; on failure {"error": {...}}',
    },
  };
}

export function operationCommand(op: AnyOperation): Command {
  const sections: OptionSection[] = [
    { title: 'Operation', options: fieldOptions(op) },
    { title: 'Connection (flag or environment variable)', options: connectionOptions(op) },
    { title: 'Output', options: { ...outputOptions(op), ...commonOptions } },
  ];
  const seen = new Set<string>();
  for (const name of sections.flatMap((s) => Object.keys(s.options))) {
    if (seen.has(name)) throw new Error(`${op.name}: the flag --${name} would be defined twice`);
    seen.add(name);
  }
  const samples = requiredArgs(op, true);
  const extras = Object.entries(op.fields)
    .filter(([, spec]) => !spec.required && spec.example !== undefined)
    .map(([wire, spec]) => `--${flagName(wire)} ${quote(spec.example!)}`);
  const fileName = op.file ? ` --output ${op.kind === 'video' ? 'video.mp4' : 'image.png'}` : '';
  return {
    name: op.name,
    summary: op.summary,
    usage: [...requiredArgs(op, false), '[options]'].join(' '),
    description: `${op.description}${op.file ? ` With --output the ${op.kind} is downloaded too.` : ''}`,
    sections,
    examples: [
      `mediagw ${op.name} ${samples.join(' ')}`.trimEnd(),
      `mediagw ${op.name} ${[...samples, ...extras].join(' ')}${fileName} --json`.replace(/ {2,}/g, ' '),
    ],
    callsGateway: true,
    op,
    run: (values, context) => runOperation(op, values, context),
  };
}
