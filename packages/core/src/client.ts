/**
 * `createClient`: the protocol builders and parsers wired to the undici transport.
 */
import { type ProtocolConfig, type ResolvedConfig, type RouteSettings, resolveConfig } from './config.js';
import { ValidationError } from './errors.js';
import {
  type BlendOptions,
  type BlendResult,
  buildBlendRequest,
  IMAGES_FIELD,
  parseBlendResponse,
} from './operations/blend.js';
import {
  buildImageToVideoRequest,
  IMAGE_FIELD,
  type ImageToVideoFields,
  type ImageToVideoResult,
  parseImageToVideoResponse,
} from './operations/image-to-video.js';
import {
  buildTextToVideoRequest,
  parseTextToVideoResponse,
  type TextToVideoInput,
  type TextToVideoResult,
} from './operations/text-to-video.js';
import type { RequestDescription } from './request.js';
import { type DownloadResult, downloadFile } from './transport/download.js';
import { type ImageInput, openImages, type TransportImage } from './transport/sources.js';
import { type SendOptions, type TransportOptions, UndiciTransport } from './transport/undici.js';

export interface ClientConfig extends ProtocolConfig, TransportOptions {
  apiKey: string;
}

export type CallOptions = Omit<SendOptions, 'onUploadProgress'> & {
  onUploadProgress?: SendOptions['onUploadProgress'];
};

export interface ImageToVideoCall extends ImageToVideoFields {
  input_image: ImageInput;
}
export interface BlendCall extends BlendOptions {
  /** Images: file paths, bytes, Blobs, streams, or ready `data:` URIs. */
  base64Array: readonly ImageInput[];
}

/** Every result carries the warnings the input drew (a short prompt, ...). */
export type WithWarnings<T> = T & { warnings: readonly string[] };

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class MediaGatewayClient {
  readonly #config: ResolvedConfig;
  readonly #transport: UndiciTransport;

  constructor(config: ClientConfig) {
    this.#config = resolveConfig(config);
    if (!this.#config.apiKey) throw new ValidationError([{ field: 'api-key', message: 'is required' }]);
    this.#transport = new UndiciTransport({ ...config, secrets: [config.apiKey] });
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

  async imageToVideo(input: ImageToVideoCall, options: CallOptions = {}): Promise<WithWarnings<ImageToVideoResult>> {
    const { input_image, ...fields } = input ?? ({} as ImageToVideoCall);
    const images = await openImages({ [IMAGE_FIELD]: input_image }, 'image-to-video');
    const request = buildImageToVideoRequest(this.#config, {
      ...fields,
      input_image: images[IMAGE_FIELD] as TransportImage,
    });
    const raw = await this.#transport.send(request, options);
    return { ...parseImageToVideoResponse(raw, this.#parseContext()), warnings: request.warnings };
  }

  async textToVideo(input: TextToVideoInput, options: CallOptions = {}): Promise<WithWarnings<TextToVideoResult>> {
    const request = buildTextToVideoRequest(this.#config, input);
    const raw = await this.#transport.send(request, options);
    return { ...parseTextToVideoResponse(raw, this.#parseContext()), warnings: request.warnings };
  }

  async blend(
    input: BlendCall,
    options: CallOptions & { acceptedCodes?: readonly number[] } = {},
  ): Promise<WithWarnings<BlendResult>> {
    const { base64Array, ...rest } = input ?? ({} as BlendCall);
    const list = Array.isArray(base64Array) ? base64Array : [];
    const entries: Record<string, ImageInput | undefined> = {};
    list.forEach((item, i) => {
      if (!(typeof item === 'string' && item.startsWith('data:'))) entries[`${IMAGES_FIELD}[${i}]`] = item;
    });
    const opened = await openImages(entries, 'blend');
    const images = list.map((item, i) =>
      typeof item === 'string' && item.startsWith('data:') ? item : (opened[`${IMAGES_FIELD}[${i}]`] as TransportImage),
    );
    const request = buildBlendRequest(this.#config, { ...rest, base64Array: Array.isArray(base64Array) ? images : [] });
    const raw = await this.#transport.send(request, options);
    const result = parseBlendResponse(raw, {
      ...this.#parseContext(),
      acceptedCodes: options.acceptedCodes ?? this.#config.acceptedBlendCodes,
    });
    const warnings = [...request.warnings];
    if (result.taskId === undefined) warnings.push('the gateway accepted the blend but sent no task id (result)');
    return { ...result, warnings };
  }

  /** Sends an already built request (from the pure builders) and returns the raw answer. */
  send(request: RequestDescription, options: CallOptions = {}) {
    return this.#transport.send(request, options);
  }

  /** Streams a produced file (video, image) to `path`. Sends no credentials. */
  download(
    url: string,
    path: string,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<DownloadResult> {
    return downloadFile(url, path, { dispatcher: this.#transport.dispatcher, ...options });
  }

  async close(): Promise<void> {
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #parseContext() {
    return { secrets: [this.#config.apiKey] };
  }

  [INSPECT](): string {
    return `MediaGatewayClient { baseUrl: '${this.#config.baseUrl}' }`;
  }
}

export function createClient(config: ClientConfig): MediaGatewayClient {
  return new MediaGatewayClient(config);
}
