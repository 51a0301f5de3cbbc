/**
 * Secret redaction. Header names are matched by pattern, not by a fixed list, so a renamed
 * secret header (`img-api-secret`, `x-foo-api-secret`, ...) is still hidden.
 */
export const REDACTED = '[redacted]';

const SECRET_HEADER = /authorization|secret|api[-_]?key|token|cookie|password|signature/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : value;
  return out;
}

/** Removes every occurrence of the given secrets from a text (a gateway may echo a key back). */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Deeper than this, a decoded answer is not walked (no gateway nests so deep; a stack must not overflow). */
export const MAX_DEPTH = 256;

const hasAny = (text: string, secrets: readonly string[]) => {
  for (const secret of secrets) if (text.includes(secret)) return true;
  return false;
};

/** Whether a secret occurs anywhere in a decoded JSON value (keys too), without allocating: every answer is checked. */
function holdsSecret(v: unknown, secrets: readonly string[], depth: number): boolean {
  if (typeof v === 'string') return hasAny(v, secrets);
  if (!v || typeof v !== 'object') return false;
  if (depth > MAX_DEPTH) throw new RangeError(`nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(v)) {
    for (const item of v) if (holdsSecret(item, secrets, depth + 1)) return true;
    return false;
  }
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    if (hasAny(key, secrets) || holdsSecret((v as Record<string, unknown>)[key], secrets, depth + 1)) return true;
  }
  return false;
}

/**
 * `scrub` through a decoded JSON value (keys and strings). Returns the same value when no secret
 * occurs, so the common case allocates nothing. Throws a RangeError past MAX_DEPTH levels.
 */
export function scrubDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const live = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  if (live.length === 0 || !holdsSecret(value, live, 0)) return value;
  const visit = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return live.some((s) => v.includes(s)) ? scrub(v, live) : v;
    if (!v || typeof v !== 'object') return v;
    if (depth > MAX_DEPTH) throw new RangeError(`nested more than ${MAX_DEPTH} levels deep`);
    if (Array.isArray(v)) {
      const items = v.map((item) => visit(item, depth + 1));
      return items.some((item, i) => item !== v[i]) ? items : v;
    }
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
      const k = visit(key, depth) as string;
      const next = visit(item, depth + 1);
      changed ||= k !== key || next !== item;
      out[k] = next;
    }
    return changed ? out : v;
  };
  return visit(value, 0) as T;
}
