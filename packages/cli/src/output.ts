/**
 * Everything the CLI prints goes through here: results on stdout, messages on stderr. Two last
 * lines of defence, whatever the core already did: the key is scrubbed from both, and no text
 * reaches the terminal with an escape sequence or a control character (gateway text is data; only
 * our own line breaks pass). `--json` keeps the data and escapes what a terminal would act on.
 */
import { plainText, scrub, stringifyExact } from '@mediagw/core';
import { type Described, describeError, type ErrorContext } from './errors.js';

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What a command may touch of the outside world (a test passes its own). */
export interface Io {
  stdout: Stream;
  stderr: Stream;
  env: NodeJS.ProcessEnv;
  /**
   * Resolves with the signal name when the user asks to stop (SIGINT, SIGTERM). Once `done` aborts,
   * it stops listening (and never resolves).
   */
  untilStopped: (done?: AbortSignal) => Promise<string>;
}

/** What JSON.stringify leaves raw that a terminal may act on: DEL and C1 controls, line separators, bidi overrides. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text safe on a terminal: the same data (jq reads it back), every such character \u-escaped. */
export function terminalSafeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface FailOptions extends ErrorContext {
  debug?: boolean | undefined;
  /** `--json` was asked for: stdout gets `{"error": {...}}`, so a pipeline always reads one object. */
  json?: boolean | undefined;
}

export class Output {
  readonly #io: Io;
  readonly #secrets: string[];
  /** How the user runs this CLI (`mediagw`, or `npm run -s mediagw --` in the repository), for hints. */
  readonly prog: string;

  constructor(io: Io, secrets: readonly (string | undefined)[] = [], prog = 'mediagw') {
    this.#io = io;
    // A key pasted with a line break is refused, but is still never printed, trimmed or not.
    this.#secrets = secrets.flatMap((s) => (s ? [s, s.trim(), plainText(s).trim()] : []));
    this.prog = prog;
  }

  get stderrIsTerminal(): boolean {
    return this.#io.stderr.isTTY === true;
  }

  /**
   * Lines of result on stdout, each argument exactly one line: a line break inside one (a gateway
   * value with CR/LF) is a space like any other control, so no line can be forged.
   */
  out(...lines: string[]): void {
    this.#write(this.#io.stdout, lines);
  }

  /** Lines on stderr, each argument exactly one line (as `out`). */
  err(...lines: string[]): void {
    this.#write(this.#io.stderr, lines);
  }

  /** Text of our own (help, the emulator's banner, a stack trace): its line breaks kept, every line plain. */
  outText(text: string): void {
    this.#write(this.#io.stdout, text.split('\n'));
  }

  errText(text: string): void {
    this.#write(this.#io.stderr, text.split('\n'));
  }

  /** The one JSON object of `--json`, integers exact. */
  json(value: unknown): void {
    this.#io.stdout.write(`${terminalSafeJson(scrub(stringifyExact(value), this.#secrets))}\n`);
  }

  warn(text: string): void {
    this.err(`mediagw: warning: ${text}`);
  }

  #write(stream: Stream, lines: string[]): void {
    stream.write(`${lines.map((line) => scrub(plainText(scrub(line, this.#secrets)), this.#secrets)).join('\n')}\n`);
  }

  describe(error: unknown, ctx: ErrorContext = {}): Described {
    return describeError(error, ctx, this.prog);
  }

  /** The error in one or two plain lines on stderr (causes and stack only with --debug). */
  report(error: unknown, described: Described, debug = false): void {
    this.err(`mediagw: ${described.message}`, ...(described.hint ? [`hint: ${described.hint}`] : []));
    if (!debug) return;
    for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; e = (e as Error).cause, depth++) {
      this.errText(depth === 0 ? String((e as Error)?.stack ?? e) : `cause: ${String((e as Error)?.stack ?? e)}`);
    }
  }

  /** Reports a failure (and with `--json` prints its one object) and returns the exit code. */
  fail(error: unknown, options: FailOptions = {}): number {
    const described = this.describe(error, options);
    if (options.json) this.json({ error: described.json });
    this.report(error, described, options.debug);
    return described.code;
  }
}
