// Small helpers shared by the real-n8n steps: free ports, deadlines instead of sleeps, hashing.
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const handedOut = new Set();

/** A TCP port free on 127.0.0.1 right now, never the same one twice in this process. */
export async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

export class TimeoutError extends Error {}

/**
 * Calls `probe` until it returns something other than undefined/false/null, or the deadline
 * passes. Errors thrown by the probe count as "not yet" (kept for the message), except those
 * with `fatal: true`, which end the wait at once. `what` names the wait in the error; `last`
 * (optional) describes the last state seen.
 */
export async function poll(probe, { what, timeoutMs = 30_000, intervalMs = 250, last } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false && value !== null) return value;
      lastError = undefined;
    } catch (error) {
      if (error?.fatal) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const state = last ? `; last: ${await Promise.resolve(last()).catch((e) => e.message)}` : '';
      const cause = lastError ? `; last error: ${lastError.message}` : '';
      throw new TimeoutError(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${state}${cause}`);
    }
    await sleep(intervalMs);
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** POSTs `body` as JSON (a webhook call); the answer's status and text. */
export async function postJson(url, body = {}, { timeoutMs = 60_000 } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, text: await response.text() };
}
