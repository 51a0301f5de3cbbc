/** Pieces the operation routes share: JSON bodies and validation answers. */
import { base64Length, parseJsonExact, ValidationError } from '@mediagw/core/protocol';
import type { FastifyInstance } from 'fastify';
import { type Answer, type Exchange, errorAnswer } from '../exchange.js';

/** A JS string holds at most about 512 MiB, and JSON.parse needs the body as one string. */
export const MAX_JSON_BODY = 512 * 1024 * 1024 - 4096;

/** Body limit for JSON bodies that may carry `maxUploadBytes` of images as base64. */
export function jsonBodyLimit(maxUploadBytes: number): number {
  return Math.min(base64Length(maxUploadBytes) + 1024 * 1024, MAX_JSON_BODY);
}

class BadBody extends Error {
  readonly statusCode = 400;
}

/**
 * Parses every body of the scope as JSON with exact big integers, whatever its Content-Type
 * (the spec marks Content-Type optional for text-to-video).
 */
export function acceptJsonBodies(scope: FastifyInstance, bodyLimit: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    try {
      done(null, parseJsonExact(body as string));
    } catch (error) {
      done(new BadBody(`the body is not valid JSON (${(error as Error).message})`), undefined);
    }
  });
}

/** Runs a core validation; a ValidationError becomes the 400 answer naming each field. */
export function validated<T>(exchange: Exchange, check: () => T): { value: T } | { answer: Answer } {
  try {
    return { value: check() };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { answer: errorAnswer(exchange, 400, error.message, { issues: error.issues }) };
  }
}
