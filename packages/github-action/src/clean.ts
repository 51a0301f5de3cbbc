/**
 * What reaches a log line, an annotation, an output or the summary: the key never (the core scrubs
 * answers; this is the second line of defence), gateway text as plain data (a line break followed
 * by `::error::` must not become a workflow command), credentials in URLs redacted.
 */
import { plainText, REDACTED, scrub, scrubDeep } from '@mediagw/core';

export interface Cleaner {
  /** One plain line, the secrets scrubbed. */
  line(text: string): string;
  /** A value kept as it is (outputs may hold line breaks), the secrets scrubbed. */
  value(text: string): string;
  /** A decoded JSON value with every key and string scrubbed. */
  json<T>(value: T): T;
}

/** The key as it may come back: as given, URL-encoded, and each line of a key that has several. */
export function secretsOf(apiKey: string): string[] {
  const forms = [apiKey, encodeURIComponent(apiKey), ...apiKey.split(/[\r\n]+/)];
  // Longest first: scrubbing a part before the whole would leave the rest of the whole behind.
  return [...new Set(forms.filter((s) => s.trim().length >= 4))].sort((a, b) => b.length - a.length);
}

export function cleaner(secrets: readonly string[]): Cleaner {
  return {
    line: (text) => plainText(scrub(text, secrets)),
    value: (text) => scrub(text, secrets),
    json: (value) => scrubDeep(value, secrets),
  };
}

/** `https://user:pass@host/...` -> `https://[redacted]@host/...`, also in text that is no valid URL. */
export function redactUserInfo(text: string): string {
  return text.replace(/^(\s*[a-z][a-z0-9+.-]*:\/*)[^/?#\s]*@/i, `$1${REDACTED}@`);
}
