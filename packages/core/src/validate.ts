/** zod issues -> our field-named ValidationError. */
import type { z } from 'zod/v4';
import { type FieldIssue, ValidationError } from './errors/index.js';

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(input)';
}

export function toFieldIssues(error: z.ZodError, allowedKeys?: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({
          field: fieldPath([...issue.path, key]),
          message: `is not a field of this operation${allowedKeys ? `; allowed: ${allowedKeys.join(', ')}` : ''}`,
        });
      }
    } else {
      issues.push({ field: fieldPath(issue.path), message: issue.message });
    }
  }
  return issues;
}

/** Parses `input` with `schema`, or throws a ValidationError naming each bad field. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, operation: string, extra: FieldIssue[] = []): T {
  const result = schema.safeParse(input);
  if (result.success && extra.length === 0) return result.data;
  const keys = 'shape' in schema ? Object.keys((schema as unknown as { shape: object }).shape) : undefined;
  throw new ValidationError(result.success ? extra : [...toFieldIssues(result.error, keys), ...extra], operation);
}
