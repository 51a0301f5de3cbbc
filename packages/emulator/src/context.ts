/** What every operation route gets from the server, and what it must say about itself. */
import type { OperationName, RouteSettings } from '@mediagw/core/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from './exchange.js';
import type { FileStore } from './files.js';
import type { BlendNotification } from './notify.js';

/** Bearer on the video operations; the secret header with the bare key on blend (spec section 5). */
export type AuthStyle = 'bearer' | 'secret-header';

export interface EmulatorContext {
  readonly routes: RouteSettings;
  readonly maxUploadBytes: number;
  readonly files: FileStore;
  /** The emulator's base URL (known once it listens). */
  baseUrl(): string;
  /**
   * Posts a finished blend task to its notifyHook in the background, with retries, once `after`
   * (the answer being sent) settles. Registered at once, so `settled()` waits for it.
   */
  notify(hook: string, body: BlendNotification, after: Promise<unknown>): void;
}

export interface OperationRoute {
  operation: OperationName;
  /** Path as fastify matches it. */
  path: string;
  /** Path as people read it (banner, 404 message). */
  displayPath: string;
  auth: AuthStyle;
  /** A last say on whether the matched path is really served (checked before auth); default yes. */
  serves?(request: FastifyRequest): boolean;
  /** The HTTP 200 body that says the task failed (the `envelope-failure` fault). */
  failure(): unknown;
  /** Registers what the route needs in its own fastify scope (body parsers). */
  setup(scope: FastifyInstance): Promise<void>;
  handle(request: FastifyRequest, reply: FastifyReply, exchange: Exchange): Promise<FastifyReply>;
}

/** Ids like the gateway's blend ids: long decimal numbers, more than 2^53 (time, then a counter). */
let counter = 0;
export function longNumericId(): string {
  counter = (counter + 1) % 1_000_000;
  return `${Date.now()}${String(counter).padStart(6, '0')}`;
}
