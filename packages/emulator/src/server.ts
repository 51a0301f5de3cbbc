/**
 * `startEmulator`: one fastify server with the three operations, each in its own scope (its own
 * body parsers), behind one gate that runs the checks in the documented order:
 * route (404) -> auth (401/403) -> fault -> validation (400, in the route) -> success.
 */
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type FieldIssue,
  type OperationName,
  type RouteSettings,
  redactHeaders,
  resolveConfig,
  ValidationError,
} from '@mediagw/core/protocol';
import Fastify, { type FastifyReply, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import { checkKey, type KeyPolicy } from './auth.js';
import type { AuthStyle, EmulatorContext, OperationRoute } from './context.js';
import {
  type Answer,
  type Exchange,
  errorAnswer,
  jsonAnswer,
  type RecordedRequest,
  send,
  successStatus,
} from './exchange.js';
import { FAULT_HEADER, type Fault, FaultCounter, FaultHeaderError, isErrorStatus, parseFaultHeader } from './faults.js';
import { type Download, FILES_PATH, FileStore } from './files.js';
import { deliverNotification, type NotificationAttempt } from './notify.js';
import { blendRoute } from './routes/blend.js';
import { jsonBodyLimit, MAX_JSON_BODY } from './routes/common.js';
import { imageToVideoRoute } from './routes/image-to-video.js';
import { textToVideoRoute } from './routes/text-to-video.js';

declare module 'fastify' {
  interface FastifyRequest {
    exchange: Exchange | null;
  }
}

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
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
}

export interface Endpoint {
  operation: OperationName;
  method: 'POST';
  path: string;
  /** How the key is sent: `Authorization: Bearer <key>` or `<secret header>: <key>`. */
  auth: string;
}

export interface Emulator {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  readonly routes: Readonly<RouteSettings>;
  readonly endpoints: readonly Endpoint[];
  /** True when only one pinned key is accepted. */
  readonly keyPinned: boolean;
  /** Every request received, in order (refused ones too), secrets redacted. */
  readonly requests: readonly RecordedRequest[];
  /** Every notifyHook delivery attempt. */
  readonly notifications: readonly NotificationAttempt[];
  /** Every `GET /files/...` (not counted as requests). */
  readonly downloads: readonly Download[];
  /** Requests received for one operation, or all (404s included). */
  count(operation?: OperationName): number;
  /** Replaces the server-wide fault (undefined: none) and restarts its `times` count. */
  setFault(fault?: Fault): void;
  /** Clears records, counters and `times` counts (the server-wide fault stays). */
  reset(): void;
  /** Resolves once every notifyHook delivery under way has finished. */
  settled(): Promise<void>;
  /** Stops listening; aborts deliveries still retrying. */
  close(): Promise<void>;
}

const GIB = 1024 ** 3;

function checkOptions(options: EmulatorOptions): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { port, maxUploadBytes, notifyRetries, apiKey } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    issues.push({ field: 'port', message: `${port} is not allowed; allowed: an integer from 0 to 65535` });
  }
  if (maxUploadBytes !== undefined && !(Number.isSafeInteger(maxUploadBytes) && maxUploadBytes > 0)) {
    issues.push({ field: 'maxUploadBytes', message: 'must be a positive whole number of bytes' });
  }
  if (notifyRetries !== undefined && !(Number.isInteger(notifyRetries) && notifyRetries >= 0)) {
    issues.push({ field: 'notifyRetries', message: 'must be a whole number, 0 or more' });
  }
  if (apiKey !== undefined && apiKey.trim() === '') issues.push({ field: 'apiKey', message: 'is empty' });
  return issues;
}

function plainHeaders(request: FastifyRequest, secretHeader: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    out[name] = name === secretHeader.toLowerCase() ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return redactHeaders(out);
}

const BAD_GATEWAY_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>mediagw emulator (emulated fault)</center></body></html>
`;

/** The answer a fault with an error status stands for. */
function faultAnswer(exchange: Exchange, fault: Fault & { status: number }): Answer {
  const status = fault.status;
  if (status === 502) {
    exchange.record.message = '502 Bad Gateway (HTML page)';
    return { status, body: BAD_GATEWAY_PAGE, contentType: 'text/html; charset=utf-8' };
  }
  const retryAfter = fault.retryAfter ?? (status === 429 ? '1' : undefined);
  const headers = retryAfter === undefined ? undefined : { 'retry-after': retryAfter };
  const wait = retryAfter === undefined ? '' : `; retry after ${retryAfter} s`;
  return errorAnswer(exchange, status, `${STATUS_CODES[status] ?? 'error'} (emulated fault)${wait}`, {}, headers);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const issues = checkOptions(options);
  let config: RouteSettings;
  try {
    config = resolveConfig({ baseUrl: 'http://emulator.invalid', ...options.routes });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...error.issues.map((i) => ({ ...i, field: `routes.${i.field}` })));
    config = {} as RouteSettings;
  }
  if (issues.length > 0) throw new ValidationError(issues);
  const { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader } = config;
  const routes: RouteSettings = { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader };
  const maxUploadBytes = options.maxUploadBytes ?? GIB;
  const keys: KeyPolicy = {
    secretHeader,
    apiKey: options.apiKey,
    forbiddenKeys: new Set(options.forbiddenKeys ?? []),
  };

  const requests: RecordedRequest[] = [];
  let seq = 0;
  const notifications: NotificationAttempt[] = [];
  const downloads: Download[] = [];
  const faults = new FaultCounter();
  let serverFault = options.fault;
  const deliveries = new Set<Promise<unknown>>();
  const closing = new AbortController();
  let baseUrl = '';

  const ctx: EmulatorContext = {
    routes,
    maxUploadBytes,
    files: new FileStore(),
    baseUrl: () => baseUrl,
    notify(hook, body, after) {
      // The task exists whether or not the answer reached the caller: deliver either way.
      const attempts = after
        .catch(() => undefined)
        .then(() =>
          deliverNotification(hook, body, {
            retries: options.notifyRetries ?? 3,
            backoffMs: options.notifyBackoffMs ?? 200,
            timeoutMs: options.notifyTimeoutMs ?? 5000,
            signal: closing.signal,
            onAttempt: (attempt) => notifications.push(attempt),
          }),
        );
      deliveries.add(attempts);
      void attempts.finally(() => deliveries.delete(attempts));
    },
  };
  const operations: OperationRoute[] = [imageToVideoRoute(ctx), textToVideoRoute(ctx), blendRoute(ctx)];
  const authLabel = (auth: AuthStyle) => (auth === 'bearer' ? 'Authorization: Bearer <key>' : `${secretHeader}: <key>`);
  const endpoints: Endpoint[] = operations.map((op) => ({
    operation: op.operation,
    method: 'POST',
    path: op.displayPath,
    auth: authLabel(op.auth),
  }));

  function begin(request: FastifyRequest, operation: OperationName | undefined): Exchange {
    const record: RecordedRequest = {
      seq: ++seq,
      operation,
      method: request.method,
      path: request.url,
      headers: plainHeaders(request, secretHeader),
      fields: {},
      receivedAt: Date.now(),
    };
    requests.push(record);
    return { record, fault: undefined };
  }

  /** The fault for this request: its header's, else the server's; undefined once `times` is used up. */
  function pickFault(request: FastifyRequest): Fault | undefined {
    const header = request.headers[FAULT_HEADER];
    const raw = Array.isArray(header) ? header.join(';') : header;
    const [key, fault] = raw !== undefined ? [`header:${raw}`, parseFaultHeader(raw)] : ['server', serverFault];
    return fault && faults.take(key, fault) ? fault : undefined;
  }

  function notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const exchange = begin(request, undefined);
    const served = [...endpoints.map((e) => `${e.method} ${e.path}`), `GET ${FILES_PATH}/<name>`].join(', ');
    const message = `no route for ${request.method} ${request.url.split('?')[0]}; the emulator serves ${served}`;
    return send(reply, exchange, errorAnswer(exchange, 404, message));
  }

  const gate =
    (route: OperationRoute): onRequestHookHandler =>
    async (request, reply) => {
      if (route.serves && !route.serves(request)) return notFound(request, reply);
      const exchange = begin(request, route.operation);
      request.exchange = exchange;
      const refusal = checkKey(route.auth, request.headers, keys);
      if (refusal) return send(reply, exchange, errorAnswer(exchange, refusal.status, refusal.message));

      let fault: Fault | undefined;
      try {
        fault = pickFault(request);
      } catch (error) {
        if (!(error instanceof FaultHeaderError)) throw error;
        return send(reply, exchange, errorAnswer(exchange, 400, error.message));
      }
      if (!fault) return;
      exchange.fault = fault;
      exchange.record.fault = fault;
      if (fault.latencyMs) await sleep(fault.latencyMs);
      if (fault.drop) {
        exchange.record.dropped = true;
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      }
      if (isErrorStatus(fault))
        return send(reply, exchange, faultAnswer(exchange, fault as Fault & { status: number }));
      if (fault.envelopeFailure) return send(reply, exchange, jsonAnswer(successStatus(exchange), route.failure()));
    };

  const jsonLimit = jsonBodyLimit(maxUploadBytes);
  const app = Fastify({ logger: false, bodyLimit: jsonLimit, forceCloseConnections: true });
  app.decorateRequest('exchange', null);
  // Outside the operations no body is ever read (a 404 does not swallow a large upload).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setNotFoundHandler((request, reply) => notFound(request, reply));
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const exchange = request.exchange;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const why =
        jsonLimit === MAX_JSON_BODY ? 'a JSON body must fit in one JavaScript string' : 'set by maxUploadBytes';
      return send(reply, exchange, errorAnswer(exchange, 413, `the body is larger than ${jsonLimit} bytes (${why})`));
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const message = status < 500 ? error.message : `emulator error: ${error.message}`;
    return send(reply, exchange, errorAnswer(exchange, status, message));
  });
  ctx.files.serve(app, (download) => downloads.push(download));
  for (const route of operations) {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      await route.setup(scope);
      scope.post(route.path, { onRequest: gate(route) }, (request, reply) =>
        route.handle(request, reply, request.exchange!),
      );
    });
  }

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  // Listening on every interface: produced-file URLs point at loopback.
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  const settled = async () => {
    while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
  };
  return {
    url: baseUrl,
    routes: Object.freeze({ ...routes }),
    endpoints,
    keyPinned: options.apiKey !== undefined,
    requests,
    notifications,
    downloads,
    count: (operation) =>
      operation === undefined ? requests.length : requests.filter((r) => r.operation === operation).length,
    setFault(fault) {
      serverFault = fault;
      faults.forget('server');
    },
    reset() {
      requests.length = 0;
      seq = 0;
      notifications.length = 0;
      downloads.length = 0;
      faults.forget();
    },
    settled,
    async close() {
      closing.abort();
      await settled();
      await app.close();
    },
  };
}
