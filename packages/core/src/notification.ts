/**
 * Reading a notification the gateway POSTs to a notify hook. The spec shows neither the events nor
 * the body (section 6), so what a notification means is a rule, with defaults that match the
 * emulator's notification (and what gateways of this family send): the task id in `id`, its state
 * in `status` (final when SUCCESS or FAILURE), the result's address in `imageUrl`, the reason of a
 * failure in `failReason`. Gateways of this family notify on every progress change: only a final
 * status ends a task.
 */

export interface NotificationRule {
  /** Where the task id is (a dotted path). */
  idField: string;
  /** Where the task's state is. */
  statusField: string;
  /** States that mean the task succeeded (exact, case-insensitive). */
  successValues: readonly string[];
  /** States that mean the task failed. */
  failureValues: readonly string[];
  /** Where the address of the result (the blended image) is. */
  resultUrlField: string;
  /** Where the reason of a failure is. */
  reasonField: string;
}

export const DEFAULT_NOTIFICATION_RULE: Readonly<NotificationRule> = Object.freeze({
  idField: 'id',
  statusField: 'status',
  successValues: Object.freeze(['SUCCESS']),
  failureValues: Object.freeze(['FAILURE', 'FAILED']),
  resultUrlField: 'imageUrl',
  reasonField: 'failReason',
});

export interface NotificationFacts {
  taskId: string | undefined;
  status: string | undefined;
  /** `pending` for anything that is not a final state (progress, unknown, missing). */
  outcome: 'success' | 'failure' | 'pending';
  resultUrl: string | undefined;
  reason: string | undefined;
}

function at(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const text = (value: unknown) =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : undefined;

/** Splits a comma-separated list of values (a UI setting) into the list a rule wants. */
export function valueList(list: string): string[] {
  return list
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export function readNotification(body: unknown, rule: NotificationRule = DEFAULT_NOTIFICATION_RULE): NotificationFacts {
  const status = text(at(body, rule.statusField));
  const upper = status?.toUpperCase();
  const is = (values: readonly string[]) => upper !== undefined && values.some((v) => v.toUpperCase() === upper);
  return {
    taskId: text(at(body, rule.idField)),
    status,
    outcome: is(rule.successValues) ? 'success' : is(rule.failureValues) ? 'failure' : 'pending',
    resultUrl: text(at(body, rule.resultUrlField)),
    reason: text(at(body, rule.reasonField)),
  };
}
