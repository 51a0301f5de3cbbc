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
