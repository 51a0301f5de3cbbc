/**
 * Connection settings: the base URL, the key, the route settings. Problems are named by the
 * setting's key (`baseUrl`, `videoVendor`, ...); each adapter spells them its own way through the
 * one naming rule (`--base-url`, `base-url`, the credential's label).
 */
import { type FieldIssue, ValidationError } from './errors/index.js';
import { DEFAULT_ROUTES, isSegment, type RouteSetting, type RouteSettings, SEGMENT_RULE } from './route.js';
import { hasControlCharacters, show } from './text.js';

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

/** The blend code the spec shows for an accepted submission. */
export const BLEND_ACCEPTED = 1;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Settings that are path segments. */
export const SEGMENT_SETTINGS: readonly RouteSetting[] = [
  'videoVendor',
  'servicePrefix',
  'textVideoModel',
  'imageRelaxPrefix',
];

export function segmentIssue(field: string, value: unknown): FieldIssue | undefined {
  if (isSegment(value)) return undefined;
  return { field, message: `${show(value)} is not a path segment; allowed: ${SEGMENT_RULE}` };
}

export function resolveConfig(config: ProtocolConfig): ResolvedConfig {
  const issues: FieldIssue[] = [];
  const resolved: ResolvedConfig = {
    ...DEFAULT_ROUTES,
    baseUrl: '',
    apiKey: config.apiKey,
    acceptedBlendCodes: config.acceptedBlendCodes ?? [BLEND_ACCEPTED],
  };
  for (const key of Object.keys(DEFAULT_ROUTES) as (keyof RouteSettings)[]) {
    const value = config[key];
    if (typeof value === 'string' && value !== '') resolved[key] = value.trim();
  }
  let url: URL | undefined;
  try {
    url = new URL(config.baseUrl);
  } catch {
    issues.push({
      field: 'baseUrl',
      message: `${show(config.baseUrl)} is not an absolute URL; allowed: http(s)://host[:port][/prefix]`,
    });
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
    issues.push({ field: 'baseUrl', message: `scheme ${show(url.protocol)} is not supported; allowed: http, https` });
  }
  if (url && (url.search || url.hash || url.username || url.password)) {
    // The message never repeats the URL: its user info may hold a password.
    issues.push({
      field: 'baseUrl',
      message: 'must not carry a query, fragment or credentials; give the key as the API key',
    });
  }
  if (url) resolved.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  for (const key of SEGMENT_SETTINGS) {
    const issue = segmentIssue(key, resolved[key]);
    if (issue) issues.push(issue);
  }
  if (!HEADER_NAME.test(resolved.secretHeader)) {
    issues.push({ field: 'secretHeader', message: `${show(resolved.secretHeader)} is not a valid HTTP header name` });
  }
  const key = config.apiKey;
  if (key !== undefined) {
    // Never quoted: it is the secret.
    if (key.trim() === '') issues.push({ field: 'apiKey', message: 'is empty; give the gateway API key' });
    // A control character in a header value (a line break) would end the header and start another.
    else if (hasControlCharacters(key) || key !== key.trim()) {
      issues.push({
        field: 'apiKey',
        message:
          'contains a line break, a control character or surrounding blanks; give the key alone (check how it was pasted)',
      });
    }
  }
  if (resolved.acceptedBlendCodes.some((c) => !Number.isInteger(c))) {
    issues.push({ field: 'acceptedBlendCodes', message: 'must be integers' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return resolved;
}

/** Joins the base URL and a path; one slash between, none doubled. */
export function joinUrl(config: Pick<ResolvedConfig, 'baseUrl'>, path: string): string {
  return `${config.baseUrl}/${path}`;
}
