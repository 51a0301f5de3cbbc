/**
 * Key checks (spec section 5): `Authorization: Bearer <key>` on the video operations, the secret
 * header with the bare key on blend. Messages never repeat the key.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthStyle } from '@mediagw/core/protocol';

export interface KeyPolicy {
  /** Name of the blend secret header. */
  secretHeader: string;
  /** The one key accepted; undefined: any non-empty key. */
  apiKey: string | undefined;
  /** Keys answered with 403. */
  forbiddenKeys: ReadonlySet<string>;
}

export interface Refusal {
  status: 401 | 403;
  message: string;
}

const BEARER = /^Bearer[ \t]+(.*)$/i;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The key the request presents, or why it presents none. */
function presentedKey(style: AuthStyle, headers: IncomingHttpHeaders, policy: KeyPolicy): string | Refusal {
  if (style === 'bearer') {
    const value = single(headers.authorization);
    if (!value?.trim()) return { status: 401, message: 'missing API key: send Authorization: Bearer <API key>' };
    const key = BEARER.exec(value.trim())?.[1]?.trim();
    if (!key) return { status: 401, message: 'the Authorization header must be of the form: Bearer <API key>' };
    return key;
  }
  const name = policy.secretHeader;
  const value = single(headers[name.toLowerCase()])?.trim();
  if (!value) return { status: 401, message: `missing API key: send the ${name} header with the key alone` };
  if (BEARER.test(value)) return { status: 401, message: `${name} takes the key alone, without "Bearer"` };
  return value;
}

/** undefined when the request may proceed. */
export function checkKey(style: AuthStyle, headers: IncomingHttpHeaders, policy: KeyPolicy): Refusal | undefined {
  const key = presentedKey(style, headers, policy);
  if (typeof key !== 'string') return key;
  if (policy.forbiddenKeys.has(key)) return { status: 403, message: 'this API key may not use this operation' };
  if (policy.apiKey !== undefined && key !== policy.apiKey) return { status: 401, message: 'the API key is not valid' };
  return undefined;
}
