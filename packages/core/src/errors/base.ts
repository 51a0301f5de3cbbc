/** The base of the error tree, and input refused before anything was sent. */

/** An operation's name (`text-to-video`, ...); plain text here so that this module imports nothing. */
type OperationName = string;

export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'http'
  | 'refused'
  | 'invalid-response'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'download';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export abstract class MediaGatewayError extends Error {
  abstract readonly kind: ErrorKind;
  /** What the caller can do about it, one sentence. */
  readonly hint: string;
  readonly operation: OperationName | undefined;

  constructor(message: string, options: { hint: string; operation?: OperationName | undefined; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.operation = options.operation;
  }

  override get name(): string {
    return this.constructor.name;
  }

  /** Plain data, safe to log or emit (no headers, no key). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, kind: this.kind, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause' && value !== undefined) out[key] = value;
    }
    return out;
  }

  [INSPECT](): string {
    return `${this.name} [${this.kind}]: ${this.message}\n  hint: ${this.hint}`;
  }
}

export interface FieldIssue {
  /** The field as the gateway names it (`num_inference_steps`, `base64Array[1]`, ...). */
  field: string;
  /** What is wrong and what is allowed. */
  message: string;
}

/** The input was refused before anything was sent. */
export class ValidationError extends MediaGatewayError {
  readonly kind = 'validation';
  readonly issues: FieldIssue[];

  constructor(issues: FieldIssue[], operation?: OperationName) {
    const lines = issues.map((i) => `${i.field}: ${i.message}`);
    super(lines.join('; '), {
      hint: 'Fix the named field(s); nothing was sent to the gateway.',
      operation,
    });
    this.issues = issues;
  }
}

export function isMediaGatewayError(value: unknown): value is MediaGatewayError {
  return value instanceof MediaGatewayError;
}
