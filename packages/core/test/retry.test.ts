/** The one retry decision every transport loops around, and how failures without an answer are worded. */
import { describe, expect, it } from 'vitest';
import { ConnectionError, decideRetry, noAnswer, parseRetryAfter, retryDelay, ServerError } from '../src/protocol.js';

const policy = { retries: 2, maxDelayMs: 60_000, baseDelayMs: 500 };
const answer = (status: number, retryAfter?: string) => ({
  kind: 'answer' as const,
  status,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
});

describe('Retry-After', () => {
  it('reads delta-seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
  });

  it.each(['-5', '-0', 'soon', '1e3', '0x10', '2026-10-21', '5 seconds', ''])('%j is no valid Retry-After', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });

  it('a negative Retry-After backs off as usual instead of retrying at once', () => {
    const decision = decideRetry(answer(429, '-5'), 0, { policy, random: () => 0 });
    expect(decision).toEqual({ retry: true, delayMs: 500 });
  });
});

describe('decideRetry', () => {
  it('retries 429 and 503 after Retry-After, backs off otherwise, gives up after the retries or past the cap', () => {
    expect(decideRetry(answer(429, '2'), 0, { policy, random: () => 0 })).toEqual({ retry: true, delayMs: 2000 });
    expect(decideRetry(answer(503), 1, { policy, random: () => 0 })).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry(answer(503), 2, { policy })).toEqual({ retry: false });
    expect(decideRetry(answer(429, '120'), 0, { policy })).toEqual({ retry: false });
  });

  it('never retries another status, or a body that cannot be sent again', () => {
    for (const status of [200, 201, 400, 401, 404, 500, 502, 504])
      expect(decideRetry(answer(status), 0).retry).toBe(false);
    expect(decideRetry(answer(429), 0, { replayable: false })).toEqual({ retry: false });
  });

  it('retries a refused connection, never one that broke after the request went out', () => {
    expect(decideRetry({ kind: 'no-answer', code: 'ECONNREFUSED' }, 0, { policy }).retry).toBe(true);
    expect(decideRetry({ kind: 'no-answer', code: 'UND_ERR_CONNECT_TIMEOUT' }, 0, { policy }).retry).toBe(true);
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ENOTFOUND', undefined]) {
      expect(decideRetry({ kind: 'no-answer', code }, 0, { policy }).retry).toBe(false);
    }
  });

  it('retryDelay keeps its jitter bounded', () => {
    expect(retryDelay(0, 2000, policy, () => 1)).toBeGreaterThan(2000);
    expect(retryDelay(0, 2000, policy, () => 1)).toBeLessThanOrEqual(3000);
    expect(retryDelay(0, undefined, policy, () => 1)).toBe(375);
  });
});

describe('no answer: sent or not', () => {
  it('before the request was written: nothing reached the gateway', () => {
    const error = noAnswer('blend', 'http://gw.test:8080/x', 'ECONNREFUSED');
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: false, code: 'ECONNREFUSED' });
    expect(error.message).toMatch(/could not reach the gateway at gw\.test:8080 \(ECONNREFUSED\); nothing was sent/);
    expect(error.hint).toMatch(/^Nothing was sent/);
  });

  it('after: the task may exist (no "could not reach", no "may be down")', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', undefined]) {
      const error = noAnswer('blend', 'http://gw.test/x', code);
      expect(error.sent).toBe(true);
      expect(error.message).toMatch(/broke after the request was sent/);
      expect(`${error.message} ${error.hint}`).not.toMatch(/could not reach|may be down/);
      expect(error.hint).toMatch(/the task may exist/);
    }
  });

  it('a 503 hint agrees with the retry rule; other 5xx say the task may exist', () => {
    expect(new ServerError({ status: 503 }).hint).toMatch(/did not take the task/);
    expect(new ServerError({ status: 500 }).hint).toMatch(/may have created the task/);
  });
});

describe('an upload cut off before its body went out whole', () => {
  it('is retried (no task can exist) and, when retries run out, says so', () => {
    const cut = { kind: 'no-answer' as const, code: 'EPIPE', bodyComplete: false };
    expect(decideRetry(cut, 0, { policy, random: () => 0 })).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry({ ...cut, bodyComplete: true }, 0, { policy }).retry).toBe(false);
    expect(decideRetry({ ...cut, code: 'UND_ERR_HEADERS_TIMEOUT' }, 0, { policy }).retry).toBe(false);
    const error = noAnswer('image-to-video', 'http://gw.test/x', 'ECONNRESET', undefined, false);
    expect(error).toMatchObject({ sent: false });
    expect(error.message).toMatch(
      /closed the connection before the whole request was sent \(ECONNRESET\), so no task was created/,
    );
  });
});
