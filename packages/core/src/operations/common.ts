/** Schema pieces the operations share. */
import { z } from 'zod/v4';

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
  z.union([z.number(), z.bigint(), z.string()], { error: `must be ${what}` }).transform((value, ctx) => {
    if (typeof value === 'bigint') return value.toString();
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
    const digits = value.trim();
    if (!/^-?\d+$/.test(digits)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what}, got "${value}"` });
      return z.NEVER;
    }
    return BigInt(digits).toString();
  });

/** Non-negative integer that may exceed 2^53 on the gateway side (sizes, times). */
export const wireInteger = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);

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
