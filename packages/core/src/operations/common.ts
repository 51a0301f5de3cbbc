/** Schema pieces the operations share. */
import * as z from 'zod/v4';

/** A value as an error message may quote it; never throws (hostile toString, cycles, bigints). */
export function show(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 80 ? `${value.slice(0, 80)}...` : value}"`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}

/**
 * An integer with every digit kept: a safe JS integer, a bigint, or a decimal string.
 * Normalised to its decimal digits. Big numbers from a gateway arrive as digit strings
 * (see json.ts), so the same schema reads requests and responses.
 */
export const exactInteger = (what: string) =>
  // One transform instead of a union: unions try each branch and are the slow path of zod.
  z.unknown().transform((value, ctx) => {
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value)) return String(value);
      ctx.addIssue({
        code: 'custom',
        message: Number.isInteger(value)
          ? `must be ${what}; ${value} is beyond 2^53, give it as a string to keep every digit`
          : `must be ${what}, got ${value}`,
      });
      return z.NEVER;
    }
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return BigInt(value.trim()).toString();
    ctx.addIssue({ code: 'custom', message: `must be ${what}, got ${show(value)}` });
    return z.NEVER;
  });

/** An integer a gateway sends (sizes, times, quotas); beyond 2^53 it arrives as a digit string (json.ts). */
export const wireInteger = z.custom<number | string>(
  (value) =>
    (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value)),
  { error: 'must be an integer' },
);

export const absoluteHttpUrl = () =>
  z.string({ error: `must be an absolute http(s) URL` }).refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    {
      error: (issue) =>
        `${show(issue.input)} is not an absolute http(s) URL; allowed: http://host/... or https://host/...`,
    },
  );
