/**
 * Everything the CLI prints goes through here: results on stdout, messages on stderr, the key
 * scrubbed from both (a last line of defence: the core already keeps it out of errors).
 */
import {
  blend,
  GatewayError,
  imageToVideo,
  MediaGatewayError,
  scrub,
  stringifyExact,
  ValidationError,
} from '@mediagw/core';
import { kebabCase, UsageError } from './args.js';
import type { Command } from './command.js';
import { EXIT, exitCodeFor } from './exit-codes.js';

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What a command may touch of the outside world (a test passes its own). */
export interface Io {
  stdout: Stream;
  stderr: Stream;
  env: NodeJS.ProcessEnv;
  /** Resolves with the signal name when the user asks to stop (SIGINT, SIGTERM). */
  untilStopped: () => Promise<string>;
}

export class Output {
  readonly #io: Io;
  readonly #secrets: (string | undefined)[];

  constructor(io: Io, secrets: readonly (string | undefined)[] = []) {
    this.#io = io;
    this.#secrets = [...secrets];
  }

  get stderrIsTerminal(): boolean {
    return this.#io.stderr.isTTY === true;
  }

  /** A line (or lines) of result on stdout. */
  out(text: string): void {
    this.#io.stdout.write(`${scrub(text, this.#secrets)}\n`);
  }

  /** The one JSON object of `--json`, integers exact. */
  json(value: unknown): void {
    this.out(stringifyExact(value));
  }

  /** A message on stderr. */
  err(text: string): void {
    this.#io.stderr.write(`${scrub(text, this.#secrets)}\n`);
  }

  /** Raw stderr text (progress lines). */
  errRaw(text: string): void {
    this.#io.stderr.write(scrub(text, this.#secrets));
  }

  warn(text: string): void {
    this.err(`mediagw: warning: ${text}`);
  }

  /** Reports an error in one or two plain lines (stack only with --debug) and returns the exit code. */
  fail(error: unknown, options: { debug?: boolean; command?: Command } = {}): number {
    const code = exitCodeFor(error);
    const [message, hint] = describeError(error, options.command);
    this.err(`mediagw: ${message}`);
    if (hint) this.err(`hint: ${hint}`);
    if (options.debug) {
      for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; e = (e as Error).cause, depth++) {
        this.err(depth === 0 ? String((e as Error)?.stack ?? e) : `cause: ${String((e as Error)?.stack ?? e)}`);
      }
    }
    return code;
  }
}

/** How a field the core names is spelled on this command line. */
export function flagOf(field: string): string {
  const indexed = /^([A-Za-z0-9_]+)\[(\d+)\](.*)$/.exec(field);
  const name = indexed ? indexed[1]! : field;
  if (name === imageToVideo.IMAGE_FIELD || name === blend.IMAGES_FIELD) {
    return indexed ? `--image #${Number(indexed[2]) + 1}` : '--image';
  }
  if (field === '(input)') return field;
  // Nested option names (`routes.video-vendor` from the emulator) are flags by their last part.
  return `--${kebabCase(field.split('.').pop() ?? field)}`;
}

function describeError(error: unknown, command?: Command): [string, string | undefined] {
  const see = command ? `See: mediagw ${command.name} --help` : 'See: mediagw --help';
  const nothingSent = command?.callsGateway ? 'Nothing was sent. ' : '';
  if (error instanceof UsageError) return [error.message, error.hint ?? `${nothingSent}${see}`];
  if (error instanceof ValidationError) {
    const issues = error.issues.map((i) => `${flagOf(i.field)}: ${i.message}`).join('; ');
    return [issues, `${nothingSent}${see}`];
  }
  if (error instanceof GatewayError) {
    const id = error.requestId ? ` (request id ${error.requestId})` : '';
    return [`${error.message}${id}`, error.hint];
  }
  if (error instanceof MediaGatewayError) return [error.message, error.hint];
  const message = (error as Error)?.message ?? String(error);
  return exitCodeFor(error) === EXIT.internal
    ? [`internal error: ${message}`, 'This is a bug in mediagw; run again with --debug and report it.']
    : [message, undefined];
}
