/** What a failure's code says: its timeout phase, if any; and how to stop reading a body safely. */
import type { Dispatcher } from 'undici';
import type { TimeoutPhase } from '../errors/index.js';

export const PHASE_BY_CODE: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** Stops reading a response body; its 'aborted' error has nobody to hear it, and must not crash the process. */
export function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function errorCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}
