/** The emulator's options and what `startEmulator` hands back. */
import type { FieldIssue, RouteSettings } from '@mediagw/core/protocol';
import type { OperationRoute } from './context.js';
import type { RecordedRequest } from './exchange.js';
import type { Fault } from './faults.js';
import type { Download } from './files.js';
import type { HeldNotifications, NotificationAttempt } from './notify.js';

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /**
   * The base URL callers reach the emulator at, used in produced-file URLs (default: the address it
   * listens on). Set it when the caller is elsewhere, e.g. `http://host.docker.internal:8787` for an
   * n8n in Docker (with `host: '0.0.0.0'`).
   */
  publicUrl?: string;
  /** Accept only this key; by default any non-empty key is accepted. */
  apiKey?: string;
  /** Keys answered with 403. */
  forbiddenKeys?: readonly string[];
  /** Route segments and the secret header name; defaults as the core's (DEFAULT_ROUTES). */
  routes?: Partial<RouteSettings>;
  /** Largest image-to-video upload, and the images a blend body may carry (default 1 GiB). */
  maxUploadBytes?: number;
  /** Server-wide fault (a per-request `x-emulator-fault` header takes precedence). */
  fault?: Fault;
  /** notifyHook delivery: retries after the first attempt (default 3). */
  notifyRetries?: number;
  /** notifyHook delivery: wait before the first retry, doubled each time (default 200 ms). */
  notifyBackoffMs?: number;
  /** notifyHook delivery: timeout of each attempt (default 5 s). */
  notifyTimeoutMs?: number;
  /** Blend: progress notifications (IN_PROGRESS) before the final one (default 0). */
  notifyProgress?: number;
  /** Routes for operations beyond the core's three (defined with the core's `defineOperation`). */
  operations?: readonly OperationRoute[];
}

export interface Endpoint {
  operation: string;
  method: 'POST';
  path: string;
  /** How the key is sent: `Authorization: Bearer <key>` or `<secret header>: <key>`. */
  auth: string;
}

export interface Emulator {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** Where produced files are said to be (`publicUrl`, else `url`). */
  readonly publicUrl: string;
  readonly routes: Readonly<RouteSettings>;
  readonly endpoints: readonly Endpoint[];
  /** True when only one pinned key is accepted. */
  readonly keyPinned: boolean;
  /** Every request received, in order (refused ones too), secrets redacted. */
  readonly requests: readonly RecordedRequest[];
  /** Every notifyHook delivery attempt. */
  readonly notifications: readonly NotificationAttempt[];
  /** Notifications held by the `notifyHold` fault, one entry per task, oldest first. */
  readonly heldNotifications: readonly HeldNotifications[];
  /**
   * Sends held notifications (those of the given task ids, or all): each task's in order, as
   * `notify` would have. Returns how many tasks were released.
   */
  releaseNotifications(taskIds?: Iterable<string>): number;
  /** Every `GET /files/...` (not counted as requests). */
  readonly downloads: readonly Download[];
  /** Requests received for one operation, or all (404s included). */
  count(operation?: string): number;
  /** Replaces the server-wide fault (undefined: none) and restarts its `times` count. */
  setFault(fault?: Fault): void;
  /** Clears records, counters, `times` counts and held notifications (the server-wide fault stays). */
  reset(): void;
  /** Resolves once every notifyHook delivery under way has finished. */
  settled(): Promise<void>;
  /** Stops listening; aborts deliveries still retrying; held notifications are never sent. */
  close(): Promise<void>;
}

const whole = (n: unknown, min: number) => typeof n === 'number' && Number.isInteger(n) && n >= min;

export function checkOptions(options: EmulatorOptions): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { port, maxUploadBytes, notifyRetries, notifyProgress, apiKey, publicUrl } = options;
  if (port !== undefined && !(whole(port, 0) && port <= 65535)) {
    issues.push({ field: 'port', message: `${port} is not allowed; allowed: an integer from 0 to 65535` });
  }
  if (maxUploadBytes !== undefined && !(Number.isSafeInteger(maxUploadBytes) && maxUploadBytes > 0)) {
    issues.push({ field: 'maxUploadBytes', message: 'must be a positive whole number of bytes' });
  }
  if (notifyRetries !== undefined && !whole(notifyRetries, 0)) {
    issues.push({ field: 'notifyRetries', message: 'must be a whole number, 0 or more' });
  }
  if (notifyProgress !== undefined && !whole(notifyProgress, 0)) {
    issues.push({ field: 'notifyProgress', message: 'must be a whole number, 0 or more' });
  }
  if (apiKey !== undefined && apiKey.trim() === '') issues.push({ field: 'apiKey', message: 'is empty' });
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    issues.push({
      field: 'publicUrl',
      message: `"${publicUrl}" is not allowed; allowed: http(s)://host[:port][/prefix]`,
    });
  }
  return issues;
}
