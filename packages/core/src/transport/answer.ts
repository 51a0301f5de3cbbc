/** Reading an answer's body: within a size cap, and a break-off mid-body named for what it is. */
import type { Dispatcher } from 'undici';
import { InvalidResponseError, MediaGatewayError } from '../errors/index.js';
import { discard, errorCode, PHASE_BY_CODE } from './codes.js';

/** The whole answer, within the size cap; a break-off mid-body is an unreadable answer. */
export async function readAnswer(
  response: Dispatcher.ResponseData,
  operation: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new InvalidResponseError({
      operation,
      status: response.statusCode,
      problems: [`the body is larger than the ${maxBytes}-byte limit`],
    });
  const declared = Number(response.headers['content-length']);
  let size = 0;
  try {
    if (Number.isSafeInteger(declared)) {
      if (declared > maxBytes) {
        discard(response.body);
        throw tooLarge();
      }
      // Known to fit: undici's own reader is the fast path.
      return await response.body.bytes();
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > maxBytes) {
        discard(response.body);
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    const code = errorCode(error);
    if (error instanceof MediaGatewayError || signal.aborted || (code && code in PHASE_BY_CODE)) throw error;
    // The answer started and then broke off: the gateway acted, we could not read what it said.
    const received = Number.isSafeInteger(declared) ? `${declared} were announced` : `after ${size} bytes`;
    throw new InvalidResponseError({
      operation,
      status: response.statusCode,
      problems: [`the body is cut short (connection closed; ${received})`],
      cause: error,
    });
  }
}
