/**
 * What every operation route gets from the server, and what it must say about itself. The route,
 * auth and request rules of an operation come from its core descriptor; a route adds only what the
 * gateway answers (success, failure envelope, sparse success) and what it does after answering.
 */
import type { AnyOperation, RouteSettings } from '@mediagw/core/protocol';
import type { Exchange, UploadSummary } from './exchange.js';
import type { FileStore } from './files.js';
import type { Notification } from './notify.js';

export interface EmulatorContext {
  readonly routes: RouteSettings;
  readonly maxUploadBytes: number;
  readonly files: FileStore;
  /** Where produced files are served, as callers should reach them (the public URL when set). */
  fileUrl(name: string): string;
  /**
   * Posts notifications to a hook in the background, in order, each with retries, once `after`
   * (the answer being sent) settles. Registered at once, so `settled()` waits for them. With `hold`,
   * they wait for `releaseNotifications()` instead (and `settled()` does not wait for them).
   */
  notify(hook: string, notifications: readonly Notification[], after: Promise<unknown>, hold?: boolean): void;
}

/** A request as validated by the core's rules for its operation. */
export interface Received {
  /** The fields, typed (text parts read as the core reads text; JSON bodies as sent), images left out. */
  fields: Record<string, unknown>;
  /** Fields carried in the path (the text-to-video model), by name. */
  params: Record<string, string>;
  /** Multipart image uploads, counted and hashed as they streamed past. */
  uploads: UploadSummary[];
  /** Data-URI images, as sent. */
  dataUris: string[];
}

export interface OperationRoute {
  readonly operation: AnyOperation;
  /** The success answer (the task is created here). */
  succeed(received: Received, ctx: EmulatorContext, exchange: Exchange): Record<string, unknown>;
  /** The HTTP 200 body that says the task failed (the `envelope-failure` fault). */
  failure(): unknown;
  /** A successful answer reduced to the part a client needs (the `sparse` fault). */
  sparse(full: Record<string, unknown>): Record<string, unknown>;
  /** Work once the answer is on its way (notifications), with the fault in force. */
  afterAnswer?(
    received: Received,
    answer: Record<string, unknown>,
    ctx: EmulatorContext,
    exchange: Exchange,
    answered: Promise<unknown>,
  ): void;
}

/** Ids like the gateway's blend ids: long decimal numbers, more than 2^53 (time, then a counter). */
let counter = 0;
export function longNumericId(): string {
  counter = (counter + 1) % 1_000_000;
  return `${Date.now()}${String(counter).padStart(6, '0')}`;
}
