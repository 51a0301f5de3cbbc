/** What a subcommand is: its options (for parsing and help) and what it does. */
import type { AnyOperation } from '@mediagw/core';
import type { OptionSpecs, Values } from './args.js';
import type { Io, Output } from './output.js';

export interface Context {
  io: Io;
  out: Output;
  debug: boolean;
}

export interface OptionSection {
  title: string;
  options: OptionSpecs;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The part of the usage line after `mediagw <name>`. */
  usage: string;
  /** A few sentences for `--help`. */
  description: string;
  sections: OptionSection[];
  /** Written with `mediagw`; help shows them in the form the user runs. */
  examples: string[];
  /** Whether it calls the gateway (its input errors then say that nothing was sent). */
  callsGateway: boolean;
  /** The operation it runs, if it is an operation command. */
  op?: AnyOperation;
  run(values: Values, context: Context): Promise<number>;
}

/** Flags every command takes. */
export const commonOptions: OptionSpecs = {
  debug: { type: 'boolean', help: 'on failure, also print the stack trace and causes' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

export function allOptions(command: Command): OptionSpecs {
  return Object.assign({}, ...command.sections.map((s) => s.options), commonOptions);
}
