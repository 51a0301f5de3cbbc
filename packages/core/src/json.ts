/**
 * JSON with exact big integers, without a dependency. Node >= 22 gives `JSON.parse` revivers the
 * source text of each number and has `JSON.rawJSON` for writing digits verbatim.
 * Integers outside the safe range come back as decimal strings so no digit is lost and the result
 * stays plain JSON (n8n items, Action outputs, CLI output).
 */
interface ReviverContext {
  source?: string;
}
declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
}

const INTEGER = /^-?\d+$/;

function reviver(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === 'number' && context?.source !== undefined && !Number.isSafeInteger(value)) {
    if (INTEGER.test(context.source)) return context.source;
  }
  return value;
}

/** 2^53 has 16 digits: without a run of 16 digits no integer can be unsafe, and plain parsing is faster. */
const LONG_DIGITS = /\d{16}/;

export function parseJsonExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

/** An integer written on the wire with all its digits (bigint, digit string or safe number). */
export function rawInteger(digits: string): unknown {
  return JSON.rawJSON(digits);
}

/** JSON.stringify that writes bigints as digits. */
export function stringifyExact(value: unknown, space?: number): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v), space);
}
