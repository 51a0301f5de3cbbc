/**
 * `startEmulator`: one fastify server, one scope (with its own body parsers) per operation route.
 * Which operations, their paths and auth come from the core's registry; each request goes
 * route (404) -> key (401/403) -> fault -> validation (400, the core's rules) -> success.
 */
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import {
  type FieldIssue,
  OPERATIONS,
  type RouteSettings,
  redactHeaders,
  resolveConfig,
  ValidationError,
} from '@mediagw/core/protocol';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { KeyPolicy } from './auth.js';
import type { EmulatorContext, OperationRoute } from './context.js';
import { type Exchange, errorAnswer, jsonAnswer, type RecordedRequest, send, successStatus } from './exchange.js';
import { type Fault, FaultCounter } from './faults.js';
import { type Download, FILES_PATH, FileStore } from './files.js';
import { authLabel, gate, servedPath } from './gate.js';
import { Outbox } from './notify.js';
import { checkOptions, type Emulator, type EmulatorOptions, type Endpoint } from './options.js';
import { readRequest } from './reading.js';
import { blendRoute } from './routes/blend.js';
import { acceptJsonBodies, jsonBodyLimit, MAX_JSON_BODY } from './routes/common.js';
import { imageToVideoRoute } from './routes/image-to-video.js';
import { textToVideoRoute } from './routes/text-to-video.js';

declare module 'fastify' {
  interface FastifyRequest {
    exchange: Exchange | null;
  }
}

export type { Emulator, EmulatorOptions, Endpoint } from './options.js';

const GIB = 1024 ** 3;

/** The routes for the operations in the core's registry; an extra operation adds its own (`operations` option). */
export function defaultRoutes(options: Pick<EmulatorOptions, 'notifyProgress'> = {}): OperationRoute[] {
  const byName: Record<string, () => OperationRoute> = {
    'image-to-video': imageToVideoRoute,
    'text-to-video': textToVideoRoute,
    blend: () => blendRoute({ notifyProgress: options.notifyProgress }),
  };
  return OPERATIONS.map((op) => {
    const make = byName[op.name];
    if (!make) throw new Error(`the emulator has no route for ${op.name}`);
    return make();
  });
}

function plainHeaders(request: FastifyRequest, secretHeader: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    out[name] = name === secretHeader.toLowerCase() ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return redactHeaders(out);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const issues: FieldIssue[] = checkOptions(options);
  let routes = {} as RouteSettings;
  try {
    const { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader } = resolveConfig({
      baseUrl: 'http://emulator.invalid',
      ...options.routes,
    });
    routes = { videoVendor, servicePrefix, textVideoModel, imageRelaxPrefix, secretHeader };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...error.issues.map((i) => ({ ...i, field: `routes.${i.field}` })));
  }
  if (issues.length > 0) throw new ValidationError(issues);
  const maxUploadBytes = options.maxUploadBytes ?? GIB;
  const keys: KeyPolicy = {
    secretHeader: routes.secretHeader,
    apiKey: options.apiKey,
    forbiddenKeys: new Set(options.forbiddenKeys ?? []),
  };

  const requests: RecordedRequest[] = [];
  let seq = 0;
  const downloads: Download[] = [];
  const faults = new FaultCounter();
  let serverFault: Fault | undefined = options.fault;
  const outbox = new Outbox({
    retries: options.notifyRetries ?? 3,
    backoffMs: options.notifyBackoffMs ?? 200,
    timeoutMs: options.notifyTimeoutMs ?? 5000,
  });
  let baseUrl = '';

  const ctx: EmulatorContext = {
    routes,
    maxUploadBytes,
    files: new FileStore(),
    fileUrl: (name) => `${options.publicUrl?.replace(/\/+$/, '') ?? baseUrl}${FILES_PATH}/${name}`,
    notify: (hook, bodies, after, hold) => outbox.notify(hook, bodies, after, hold),
  };
  const operationRoutes = [...defaultRoutes(options), ...(options.operations ?? [])];
  const served = operationRoutes.map((route) => ({ route, ...servedPath(route.operation, routes) }));
  const endpoints: Endpoint[] = served.map(({ route, display }) => ({
    operation: route.operation.name,
    method: 'POST',
    path: display,
    auth: authLabel(route.operation, routes.secretHeader),
  }));

  function begin(request: FastifyRequest, operation: string | undefined): Exchange {
    const record: RecordedRequest = {
      seq: ++seq,
      operation,
      method: request.method,
      path: request.url,
      headers: plainHeaders(request, routes.secretHeader),
      fields: {},
      receivedAt: Date.now(),
    };
    requests.push(record);
    return { record, fault: undefined };
  }

  function notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const exchange = begin(request, undefined);
    const list = [...endpoints.map((e) => `${e.method} ${e.path}`), `GET ${FILES_PATH}/<name>`].join(', ');
    return send(
      reply,
      exchange,
      errorAnswer(
        exchange,
        404,
        `no route for ${request.method} ${request.url.split('?')[0]}; the emulator serves ${list}`,
      ),
    );
  }

  async function handle(route: OperationRoute, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const exchange = request.exchange!;
    const read = await readRequest(route.operation, request, exchange, maxUploadBytes);
    if ('answer' in read) return send(reply, exchange, read.answer);
    const full = route.succeed(read.received, ctx, exchange);
    if (exchange.fault?.drop) {
      // The task exists; the answer never leaves.
      exchange.record.dropped = true;
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    const body = exchange.fault?.sparse ? route.sparse(full) : full;
    const answered = send(reply, exchange, jsonAnswer(successStatus(exchange), body));
    route.afterAnswer?.(read.received, full, ctx, exchange, answered);
    return answered;
  }

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
    return send(
      reply,
      exchange,
      errorAnswer(exchange, status, status < 500 ? error.message : `emulator error: ${error.message}`),
    );
  });
  ctx.files.serve(app, (download) => downloads.push(download));
  const gateCtx = { keys, faults, serverFault: () => serverFault, begin };
  for (const { route, path } of served) {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      if (route.operation.body === 'multipart') {
        await scope.register(multipart, { limits: { fileSize: maxUploadBytes, fieldSize: 1024 * 1024 } });
        // Anything else is left unread; the reader refuses it.
        scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      } else acceptJsonBodies(scope, jsonLimit);
      const onRequest = (request: FastifyRequest, reply: FastifyReply) =>
        gate(route.operation, route.failure, request, reply, gateCtx);
      scope.post(path, { onRequest }, (request, reply) => handle(route, request, reply));
    });
  }

  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  // Listening on every interface: produced-file URLs point at loopback unless a public URL is set.
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  return {
    url: baseUrl,
    publicUrl: options.publicUrl?.replace(/\/+$/, '') ?? baseUrl,
    routes: Object.freeze({ ...routes }),
    endpoints,
    keyPinned: options.apiKey !== undefined,
    requests,
    notifications: outbox.attempts,
    get heldNotifications() {
      return outbox.held;
    },
    releaseNotifications: (taskIds) => outbox.release(taskIds),
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
      outbox.reset();
      downloads.length = 0;
      faults.forget();
    },
    settled: () => outbox.settled(),
    async close() {
      await outbox.close();
      await app.close();
    },
  };
}
