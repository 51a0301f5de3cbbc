/**
 * Blend `notifyHook` delivery. The spec names the parameter but shows no event and no body: the
 * bodies below are the emulator's own (documented in the README), shaped like what image-task
 * gateways of this family send: the whole task as JSON on every status or progress change.
 */

export type NotificationStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';

export interface BlendNotification {
  /** The task id (same digits as the blend `result`), as a string. */
  id: string;
  action: 'BLEND';
  status: NotificationStatus;
  /** "0%".."100%". */
  progress: string;
  /** The blended image, served by the emulator (final SUCCESS only; null otherwise). */
  imageUrl: string | null;
  /** Why the task failed (FAILURE only; null otherwise). */
  failReason: string | null;
  /** The caller's `state`, echoed (null when none was sent). */
  state: string | null;
  /** Epoch milliseconds. */
  submitTime: number;
  startTime: number;
  finishTime: number | null;
  description: string;
}

export type Notification = BlendNotification;

export interface NotificationAttempt {
  taskId: string;
  url: string;
  body: Notification;
  /** 1 for the first try of this body. */
  attempt: number;
  /** The hook's HTTP status, when it answered. */
  status?: number;
  /** The start of the hook's answer body (up to 500 characters), when it answered. */
  answer?: string;
  /** Why the attempt failed without an answer (connection refused, timeout, ...). */
  error?: string;
}

/** Notifications of one task held back by the `notifyHold` fault, until released. */
export interface HeldNotifications {
  taskId: string;
  url: string;
  /** How many notifications wait (progress and final). */
  count: number;
}

export interface DeliveryOptions {
  /** Tries after the first (default 3). */
  retries: number;
  /** Wait before the first retry, doubled each time. */
  backoffMs: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Aborts waiting and sending (the emulator is closing). */
  signal: AbortSignal;
  onAttempt: (attempt: NotificationAttempt) => void;
}

const ANSWER_CHARS = 500;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** POSTs one notification until the hook answers 2xx or the retries run out. Never throws. */
export async function deliverNotification(url: string, body: Notification, options: DeliveryOptions): Promise<boolean> {
  for (let attempt = 1; attempt <= options.retries + 1 && !options.signal.aborted; attempt++) {
    if (attempt > 1) await sleep(options.backoffMs * 2 ** (attempt - 2), options.signal);
    if (options.signal.aborted) break;
    const record: NotificationAttempt = { taskId: body.id, url, body, attempt };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'mediagw-emulator' },
        body: JSON.stringify(body),
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
      });
      const text = await response.text().catch(() => '');
      record.status = response.status;
      record.answer = text.slice(0, ANSWER_CHARS);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      record.error = cause?.code ?? cause?.message ?? (error as Error).message;
    }
    options.onAttempt(record);
    if (record.status !== undefined && record.status >= 200 && record.status < 300) return true;
  }
  return false;
}

/** Delivers notifications one after the other (progress first, the final one last). */
export async function deliverAll(
  url: string,
  bodies: readonly Notification[],
  options: DeliveryOptions,
): Promise<void> {
  for (const body of bodies) {
    if (options.signal.aborted) return;
    await deliverNotification(url, body, options);
  }
}

/**
 * The emulator's outgoing notifications: sends each task's notifications after its answer, holds
 * them instead when the `notifyHold` fault asks (until `release`), records every attempt, and
 * knows when all deliveries are done (`settled`).
 */
export class Outbox {
  readonly attempts: NotificationAttempt[] = [];
  readonly #held: (HeldNotifications & { send: () => void })[] = [];
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #closing = new AbortController();

  constructor(readonly options: Pick<DeliveryOptions, 'retries' | 'backoffMs' | 'timeoutMs'>) {}

  /** Delivers `bodies` to `hook` once `after` (the answer) has settled: the task exists either way. */
  notify(hook: string, bodies: readonly Notification[], after: Promise<unknown>, hold = false): void {
    const send = () => {
      const run = after
        .catch(() => undefined)
        .then(() =>
          deliverAll(hook, bodies, {
            ...this.options,
            signal: this.#closing.signal,
            onAttempt: (attempt) => this.attempts.push(attempt),
          }),
        );
      this.#inFlight.add(run);
      void run.finally(() => this.#inFlight.delete(run));
    };
    if (hold) this.#held.push({ taskId: bodies[0]?.id ?? '', url: hook, count: bodies.length, send });
    else send();
  }

  get held(): HeldNotifications[] {
    return this.#held.map(({ taskId, url, count }) => ({ taskId, url, count }));
  }

  /** Sends the held notifications of `taskIds` (all when undefined); how many tasks were released. */
  release(taskIds?: Iterable<string>): number {
    const wanted = taskIds === undefined ? undefined : new Set(taskIds);
    const released = this.#held.filter((h) => wanted === undefined || wanted.has(h.taskId));
    for (const h of released) {
      this.#held.splice(this.#held.indexOf(h), 1);
      if (!this.#closing.signal.aborted) h.send();
    }
    return released.length;
  }

  /** Resolves when every delivery under way has ended. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  reset(): void {
    this.attempts.length = 0;
    this.#held.length = 0;
  }

  /** Drops held notifications, stops retries and waits for deliveries under way. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.#held.length = 0;
    await this.settled();
  }
}
