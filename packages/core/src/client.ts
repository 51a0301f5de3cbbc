/**
 * `createClient`: any operation's builder and parser wired to the undici transport. `run(op, input)`
 * serves every operation (also one a caller defines); the named methods are typed shortcuts.
 */
import { buildRequest } from './build.js';
import { type ProtocolConfig, type ResolvedConfig, resolveConfig } from './config.js';
import { ValidationError } from './errors/index.js';
import type { AnyOperation, InputOf, ResultOf } from './operation.js';
import { blend } from './operations/blend.js';
import { imageToVideo } from './operations/image-to-video.js';
import { textToVideo } from './operations/text-to-video.js';
import { parseAnswer } from './parse.js';
import type { RequestDescription } from './request.js';
import type { RouteSettings } from './route.js';
import { type DownloadResult, downloadFile } from './transport/download.js';
import { OutputFile } from './transport/output.js';
import { type ImageInput, openImages } from './transport/sources.js';
import { type SendOptions, type TransportOptions, UndiciTransport } from './transport/undici.js';

export interface ClientConfig extends ProtocolConfig, TransportOptions {
  apiKey: string;
  /** The most a download may bring when the answer announces no size (default 2 GiB). */
  maxDownloadBytes?: number | undefined;
}

export type CallOptions = SendOptions;

/** An operation's input as the client takes it: images as paths, bytes, Blobs, streams (or data URIs where the operation sends those). */
export type CallInput<Op> = InputOf<Op, ImageInput>;

export interface DownloadCallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** The size the answer announced: caps the download at that plus slack. */
  expectedBytes?: number | string | undefined;
  /** Replace an existing regular file at a path target (default: refuse it). */
  overwrite?: boolean | undefined;
  operation?: string | undefined;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class MediaGatewayClient {
  readonly #config: ResolvedConfig;
  readonly #transport: UndiciTransport;
  readonly #maxDownloadBytes: number | undefined;

  constructor(config: ClientConfig) {
    this.#config = resolveConfig(config);
    if (!this.#config.apiKey) throw new ValidationError([{ field: 'apiKey', message: 'is required' }]);
    this.#transport = new UndiciTransport({ ...config, secrets: [config.apiKey] });
    this.#maxDownloadBytes = config.maxDownloadBytes;
  }

  /** Base URL and routes in force (never the key). */
  get settings(): Omit<ResolvedConfig, 'apiKey'> {
    const { apiKey: _key, ...rest } = this.#config;
    return rest;
  }

  get routes(): RouteSettings {
    const { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader } = this.#config;
    return { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader };
  }

  /** Runs any operation: images opened (checked before sending), the request built, sent, the answer parsed. */
  async run<Op extends AnyOperation>(op: Op, input: CallInput<Op>, options: CallOptions = {}): Promise<ResultOf<Op>> {
    const given = { ...((input ?? {}) as Record<string, unknown>) };
    await this.#openImagesOf(op, given);
    const request = buildRequest(op, this.#config, given as InputOf<Op>);
    const raw = await this.#transport.send(request, options);
    return parseAnswer(op, raw, { config: this.#config, secrets: [this.#config.apiKey], warnings: request.warnings });
  }

  /** Replaces the images the caller named (paths, bytes, Blobs, streams) by sources the transport reads. */
  async #openImagesOf(op: AnyOperation, given: Record<string, unknown>): Promise<void> {
    const spec = op.images;
    const raw = spec ? given[spec.field] : undefined;
    if (!spec || raw === undefined) return;
    const items = spec.many ? raw : [raw];
    if (!Array.isArray(items)) return; // not a list: the builder names the problem
    const fieldOf = (i: number) => (spec.many ? `${spec.field}[${i}]` : spec.field);
    // Ready data URIs go as they are.
    const ready = (item: unknown) =>
      spec.encoding === 'data-uri' && typeof item === 'string' && item.startsWith('data:');
    const entries = Object.fromEntries(
      items.flatMap((item, i) => (ready(item) ? [] : [[fieldOf(i), item as ImageInput]])),
    );
    const opened = await openImages(entries, op.name);
    const images = items.map((item, i) => (ready(item) ? item : opened[fieldOf(i)]));
    given[spec.field] = spec.many ? images : images[0];
  }

  imageToVideo(input: CallInput<typeof imageToVideo>, options?: CallOptions) {
    return this.run(imageToVideo, input, options);
  }

  textToVideo(input: CallInput<typeof textToVideo>, options?: CallOptions) {
    return this.run(textToVideo, input, options);
  }

  blend(input: CallInput<typeof blend>, options?: CallOptions) {
    return this.run(blend, input, options);
  }

  /** Sends an already built request (from `buildRequest`) and returns the raw answer. */
  send(request: RequestDescription, options: CallOptions = {}) {
    return this.#transport.send(request, options);
  }

  /**
   * Streams a produced file (video, image) to a path (checked and reserved first: never over a
   * device, a directory, or an existing file unless `overwrite`) or into an OutputFile reserved
   * earlier. Capped; sends no credentials.
   */
  async download(url: string, target: string | OutputFile, options: DownloadCallOptions = {}): Promise<DownloadResult> {
    const output =
      typeof target === 'string' ? await OutputFile.reserve(target, { overwrite: options.overwrite }) : target;
    return downloadFile(url, output, {
      dispatcher: this.#transport.dispatcher,
      maxBytes: this.#maxDownloadBytes,
      ...options,
    });
  }

  async close(): Promise<void> {
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  [INSPECT](): string {
    return `MediaGatewayClient { baseUrl: '${this.#config.baseUrl}' }`;
  }
}

export function createClient(config: ClientConfig): MediaGatewayClient {
  return new MediaGatewayClient(config);
}
