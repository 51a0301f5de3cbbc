/**
 * What the emulator produces, served back at `GET /files/<name>`: the fixture video for every
 * text-to-video answer and the blended PNG of every blend task. Kept in memory, newest kept.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

export const FILES_PATH = '/files';

/** The real, playable MP4 every text-to-video answer points at (see fixtures/README.md). */
export const SAMPLE_VIDEO = readFileSync(new URL('../fixtures/sample.mp4', import.meta.url));

interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

export interface Download {
  path: string;
  status: number;
}

export class FileStore {
  readonly #files = new Map<string, StoredFile>();
  readonly #limit: number;

  /** `limit`: how many files to keep; the oldest go first (blend images are the only large ones). */
  constructor(limit = 200) {
    this.#limit = limit;
  }

  put(name: string, bytes: Buffer, contentType: string): void {
    this.#files.set(name, { bytes, contentType });
    for (const oldest of this.#files.keys()) {
      if (this.#files.size <= this.#limit) break;
      this.#files.delete(oldest);
    }
  }

  get(name: string): StoredFile | undefined {
    return this.#files.get(name);
  }

  /** `GET /files/:name` (HEAD too); `onDownload` hears each one. */
  serve(app: FastifyInstance, onDownload: (download: Download) => void): void {
    app.get<{ Params: { name: string } }>(`${FILES_PATH}/:name`, async (request, reply) => {
      const file = this.get(request.params.name);
      onDownload({ path: request.url, status: file ? 200 : 404 });
      if (!file) {
        return reply.code(404).send({
          code: 404,
          message: `no file "${request.params.name}"; the emulator keeps the ${this.#limit} newest`,
        });
      }
      return reply.type(file.contentType).header('content-length', file.bytes.byteLength).send(file.bytes);
    });
  }
}
