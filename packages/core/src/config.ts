/**
 * Connection and route settings. The spec writes vendor segments as neutral words in braces;
 * each is a setting here, and its default is that neutral word.
 */
import { type FieldIssue, ValidationError } from './errors.js';

export type OperationName = 'image-to-video' | 'text-to-video' | 'blend';
export const OPERATIONS: readonly OperationName[] = ['image-to-video', 'text-to-video', 'blend'];

export interface RouteSettings {
  /** `{video_vendor}` in `/{video_vendor}/m2v_16_img2video_10s`. */
  videoVendor: string;
  /** `{service_prefix}` in `/{service_prefix}/submit/{text_video_model}`. */
  servicePrefix: string;
  /** `{text_video_model}`; a call may override it with `model`. */
  textVideoModel: string;
  /** `{image_relax_prefix}` in `/{image_relax_prefix}/submit/blend`. */
  imageRelaxPrefix: string;
  /** Name of the blend secret header (`img-api-secret` in the spec). */
  secretHeader: string;
}

export const DEFAULT_ROUTES: Readonly<RouteSettings> = Object.freeze({
  videoVendor: 'video_vendor',
  servicePrefix: 'service_prefix',
  textVideoModel: 'text_video_model',
  imageRelaxPrefix: 'image_relax_prefix',
  secretHeader: 'img-api-secret',
});

export interface ProtocolConfig extends Partial<RouteSettings> {
  /** Base address; may carry a path prefix; a trailing slash changes nothing. */
  baseUrl: string;
  /** Optional here: an adapter that authenticates by itself (n8n) leaves it out. */
  apiKey?: string | undefined;
  /** Blend `code` values that count as accepted (default `[1]`). */
  acceptedBlendCodes?: readonly number[] | undefined;
}

export interface ResolvedConfig extends RouteSettings {
  baseUrl: string;
  apiKey: string | undefined;
  acceptedBlendCodes: readonly number[];
}

const SEGMENT = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Settings named as the CLI and the Action name them, for messages. */
const SETTING_LABEL: Record<keyof RouteSettings, string> = {
  videoVendor: 'video-vendor',
  servicePrefix: 'service-prefix',
  textVideoModel: 'model',
  imageRelaxPrefix: 'image-relax-prefix',
  secretHeader: 'secret-header',
};

export function checkSegment(name: string, value: unknown, issues: FieldIssue[]): void {
  if (typeof value !== 'string' || !SEGMENT.test(value) || value.split('/').some((p) => p === '.' || p === '..')) {
    issues.push({
      field: name,
      message: `${typeof value === 'string' ? `"${value}"` : `a ${typeof value}`} is not a path segment; allowed: letters, digits, . _ ~ - (and / between segments), not . or ..`,
    });
  }
}

export function resolveConfig(config: ProtocolConfig): ResolvedConfig {
  const issues: FieldIssue[] = [];
  const resolved: ResolvedConfig = {
    ...DEFAULT_ROUTES,
    baseUrl: '',
    apiKey: config.apiKey,
    acceptedBlendCodes: config.acceptedBlendCodes ?? [1],
  };
  for (const key of Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]) {
    const value = config[key];
    if (value !== undefined && value !== '') resolved[key] = value.trim();
  }
  let url: URL | undefined;
  try {
    url = new URL(config.baseUrl);
  } catch {
    issues.push({
      field: 'base-url',
      message: `"${config.baseUrl}" is not an absolute URL; allowed: http(s)://host[:port][/prefix]`,
    });
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
    issues.push({ field: 'base-url', message: `scheme ${url.protocol} is not supported; allowed: http, https` });
  }
  if (url && (url.search || url.hash || url.username || url.password)) {
    issues.push({
      field: 'base-url',
      message: 'must not carry a query, fragment or credentials; put the key in api-key',
    });
  }
  if (url) resolved.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  for (const key of ['videoVendor', 'servicePrefix', 'textVideoModel', 'imageRelaxPrefix'] as const) {
    checkSegment(SETTING_LABEL[key], resolved[key], issues);
  }
  if (!HEADER_NAME.test(resolved.secretHeader)) {
    issues.push({ field: 'secret-header', message: `"${resolved.secretHeader}" is not a valid HTTP header name` });
  }
  if (config.apiKey !== undefined && config.apiKey.trim() === '') {
    issues.push({ field: 'api-key', message: 'is empty; give the gateway API key' });
  }
  if (resolved.acceptedBlendCodes.some((c) => !Number.isInteger(c))) {
    issues.push({ field: 'acceptedBlendCodes', message: 'must be integers' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return resolved;
}

/** Joins the base URL and path segments; one slash between each, none doubled. */
export function joinUrl(config: ResolvedConfig, ...segments: string[]): string {
  return [config.baseUrl, ...segments].join('/');
}
