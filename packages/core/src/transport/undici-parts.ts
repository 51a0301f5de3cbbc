/**
 * The three parts of undici the transport uses, imported by path. `import 'undici'` evaluates all
 * of undici (fetch, WebSocket, caches, mocks): ~70 ms of start-up against ~33 ms for these parts
 * (measured), paid by every CLI run and every Action step. undici has no `exports` map, so these
 * paths resolve; core pins undici exactly, and the client tests exercise each part.
 */
import type { Agent as AgentType, Dispatcher, interceptors } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import redirectInterceptor from 'undici/lib/interceptor/redirect.js';

export const Agent = AgentClass as typeof AgentType;
export const redirect = redirectInterceptor as typeof interceptors.redirect;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** `undici.request(url, { dispatcher, ... })`, without loading undici's index. */
export function request(
  dispatcher: Dispatcher,
  url: string,
  options: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return (apiRequest as (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(
    dispatcher,
    { ...options, origin, path: `${pathname}${search}` },
  );
}
