/**
 * An operation, described once: route, auth, fields, images, how its answer is read and what a
 * caller gets back. The builder, the parser, the client, the emulator and every adapter (CLI flags,
 * Action inputs and outputs, n8n parameters) derive from this description; a new operation is one
 * `defineOperation` in `operations/` plus its entry in the registry.
 */
import type * as z from 'zod/v4';
import type { ResolvedConfig } from './config.js';
import type { GatewayErrorInit } from './errors/index.js';
import { type FieldSpecs, type FieldsInput, objectSchemaOf } from './fields.js';
import type { ImageSource } from './image.js';
import type { RawResponse } from './response.js';
import type { RouteTemplate } from './route.js';

/** `Authorization: Bearer <key>`, or the secret header with the bare key (spec section 5). */
export type AuthStyle = 'bearer' | 'secret-header';
/** What the operation makes (the spec groups operations by media kind). */
export type MediaKind = 'video' | 'image';

export interface ImagesSpec<Field extends string = string, Many extends boolean = boolean> {
  /** The wire name (`input_image`, `base64Array`). */
  readonly field: Field;
  readonly many: Many;
  /** `multipart`: a file part each; `data-uri`: `data:<mime>;base64,...` strings in the JSON body. */
  readonly encoding: 'multipart' | 'data-uri';
  readonly description: string;
  /** Fewer than this draws a warning (blend usually takes two or more). */
  readonly warnBelow?: number;
}

/** A file the result points at, for adapters that fetch it (CLI --output, Action download-path, n8n binary). */
export interface ProducedFile {
  url: string;
  /** The size the answer announced, if any (caps the download). */
  size?: number | string | undefined;
  contentType?: string | undefined;
  kind: MediaKind;
  /** A file name to use when the URL gives none. */
  name: string;
}

/** One value a caller reads off the result (a CLI --json key, an Action output, ...). */
export interface OutputSpec<R> {
  /** camelCase; kebab-case where an adapter wants it (`taskId` -> `task-id`). */
  readonly name: string;
  readonly description: string;
  value(result: R): string | number | undefined;
}

export interface AnswerContext {
  config: ResolvedConfig;
  raw: RawResponse;
  /** Adds a warning to the result. */
  warn(message: string): void;
}

export interface AnswerSpec<R> {
  /** What the answer must have for the result to be useful; without it the call fails (quoting ids seen). */
  readonly useful: z.ZodType;
  /** Everything the spec lists; what is missing or mistyped here only draws a warning. */
  readonly listed: z.ZodType;
  /** A refusal carried by a 2xx answer (a failure envelope, a code not accepted), checked first. */
  refusal?(
    json: Record<string, unknown>,
    ctx: AnswerContext,
  ): Omit<GatewayErrorInit, 'status' | 'operation'> | undefined;
  /** The typed result; the useful part is known to be there, anything else may be missing. */
  read(json: Record<string, unknown>, ctx: AnswerContext): R;
}

export interface OperationSpec<
  Name extends string = string,
  Fs extends FieldSpecs = FieldSpecs,
  R = unknown,
  I extends ImagesSpec | undefined = ImagesSpec | undefined,
> {
  readonly name: Name;
  /** Title Case, for UIs (`Text to Video`). */
  readonly title: string;
  readonly kind: MediaKind;
  /** One line for command lists and operation pickers. */
  readonly summary: string;
  /** A few sentences for help pages. */
  readonly description: string;
  readonly route: RouteTemplate;
  readonly auth: AuthStyle;
  readonly body: 'json' | 'multipart';
  readonly fields: Fs;
  readonly images: I;
  /** The field that takes an address the gateway notifies about the task (spec section 6), if any. */
  readonly notifyField?: string;
  readonly answer: AnswerSpec<R>;
  readonly outputs: readonly OutputSpec<R>[];
  /** Human summary lines of a result; the first is the headline. */
  describe(result: R): string[];
  /** The file the result points at, if it has one. */
  file?(result: R): ProducedFile | undefined;
}

export interface Operation<
  Name extends string = string,
  Fs extends FieldSpecs = FieldSpecs,
  R = unknown,
  I extends ImagesSpec | undefined = ImagesSpec | undefined,
> extends OperationSpec<Name, Fs, R, I> {
  /** Strict schema of the fields (images excluded): unknown keys are refused. */
  readonly schema: z.ZodObject;
}

/** The images part of an input: one source or a list, under the operation's wire name. */
type ImagesInput<I, Img> =
  I extends ImagesSpec<infer F, infer M> ? { [K in F]: M extends true ? readonly Img[] : Img } : unknown;

/** What a caller passes: the fields, plus the images as `Img` (protocol sources, or what a transport reads). */
export type InputOf<Op, Img = ImageSource> =
  Op extends Operation<string, infer Fs, unknown, infer I> ? FieldsInput<Fs> & ImagesInput<I, Img> : never;

/** What a caller gets: the operation's own result plus the answer as parsed and any warnings. */
export type ResultOf<Op> = Op extends Operation<infer Name, FieldSpecs, infer R> ? Result<Name, R> : never;

export type Result<Name extends string = string, R = unknown> = R & {
  readonly operation: Name;
  /** Remarks about the input (a short prompt) and the answer (fields the spec lists but it lacked). */
  readonly warnings: readonly string[];
  /** The answer as parsed: unknown fields kept, integers beyond 2^53 as digit strings, the key scrubbed. */
  readonly response: Record<string, unknown>;
};

// biome-ignore lint/suspicious/noExplicitAny: any result type: a list of operations holds many
export type AnyOperation = Operation<string, FieldSpecs, any, ImagesSpec | undefined>;

export function defineOperation<
  const Name extends string,
  const Fs extends FieldSpecs,
  R,
  const I extends ImagesSpec | undefined = undefined,
>(spec: OperationSpec<Name, Fs, R, I>): Operation<Name, Fs, R, I> {
  return Object.freeze({ ...spec, schema: objectSchemaOf(spec.fields) });
}

const bodyFields = new WeakMap<AnyOperation, readonly string[]>();

/** Field names sent in the body (segment fields go into the path); worked out once per operation, as every call asks. */
export function bodyFieldNames(op: AnyOperation): readonly string[] {
  let names = bodyFields.get(op);
  if (!names) {
    names = Object.entries(op.fields)
      .filter(([, spec]) => spec.kind !== 'segment')
      .map(([name]) => name);
    bodyFields.set(op, names);
  }
  return names;
}
