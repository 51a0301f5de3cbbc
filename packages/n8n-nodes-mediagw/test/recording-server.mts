/**
 * A gateway stand-in on loopback that records what arrives byte for byte (Content-Length,
 * Transfer-Encoding, the count and SHA-256 of the body bytes received, the images of its data URIs
 * decoded on the fly: no size limit, unlike a JSON parser) and serves videos of any
 * size, generated as they are sent (nothing held in memory): for the streaming tests and the bench.
 *
 * Routes: POST .../submit/blend (answers a task id), POST .../submit/<model> (text-to-video: a
 * finished video at GET /files/video.mp4, as `video` says); anything else 404.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The images of the data URIs in a body, decoded and hashed as the body streams past. */
class DataUriHasher {
  readonly images: { bytes: number; sha256: string }[] = [];
  #seeking = true;
  #window = '';
  #pending = '';
  #hash = createHash('sha256');
  #bytes = 0;

  update(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#seeking) {
        const text = this.#window + chunk.toString('latin1', i);
        const at = text.indexOf(';base64,');
        if (at < 0) {
          this.#window = text.slice(-7);
          return;
        }
        i += at + 8 - this.#window.length;
        this.#window = '';
        this.#seeking = false;
        this.#hash = createHash('sha256');
        this.#bytes = 0;
        continue;
      }
      const quote = chunk.indexOf(0x22, i);
      const stop = quote < 0 ? chunk.length : quote;
      this.#feed(chunk.toString('latin1', i, stop));
      i = stop;
      if (quote >= 0) {
        this.#feed('', true);
        this.images.push({ bytes: this.#bytes, sha256: this.#hash.digest('hex') });
        this.#seeking = true;
        i = quote + 1;
      }
    }
  }

  #feed(text: string, last = false): void {
    this.#pending += text;
    const whole = last ? this.#pending.length : this.#pending.length - (this.#pending.length % 4);
    if (whole === 0) return;
    const bytes = Buffer.from(this.#pending.slice(0, whole), 'base64');
    this.#bytes += bytes.length;
    this.#hash.update(bytes);
    this.#pending = this.#pending.slice(whole);
  }
}

export interface RecordedBody {
  path: string;
  headers: IncomingMessage['headers'];
  /** Bytes that arrived. */
  bytes: number;
  sha256: string;
  /** The body itself, kept only up to `keepBodyBytes` (default 16 MiB). */
  body: Buffer | undefined;
  /** Each data URI's image, decoded as it arrived (blend bodies). */
  images: { bytes: number; sha256: string }[];
  /** The connection closed before the body was complete. */
  aborted: boolean;
}

export interface VideoSettings {
  /** Bytes the download really sends. */
  bytes: number;
  /** `file_size` in the text-to-video answer (default: `bytes`; 0 = none announced). */
  announcedBytes?: number;
  /** Content-Length of the download: the true size (default), none (chunked), or a given number. */
  contentLength?: 'exact' | 'none' | number;
  contentType?: string;
}

export interface RecordingServer {
  readonly url: string;
  readonly bodies: RecordedBody[];
  /** GET /files/... requests and the bytes each got before it ended or was cut. */
  readonly downloads: { path: string; sent: number; finished: boolean }[];
  video: VideoSettings;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** The deterministic bytes of a served video: offset-derived, so any range can be regenerated. */
export function videoChunk(offset: number, length: number): Buffer {
  const chunk = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) chunk[i] = (offset + i) % 251;
  // An MP4 starts with a box size and "ftyp": the first bytes say video/mp4 to any sniffer.
  if (offset === 0 && length >= 12) chunk.write('\0\0\0\x18ftypisom', 0, 'latin1');
  return chunk;
}

/** SHA-256 of the first `bytes` bytes a video of this server sends. */
export function videoSha256(bytes: number): string {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes; at += CHUNK) hash.update(videoChunk(at, Math.min(CHUNK, bytes - at)));
  return hash.digest('hex');
}

export async function startRecordingServer(
  options: { video?: VideoSettings; keepBodyBytes?: number } = {},
): Promise<RecordingServer> {
  const bodies: RecordedBody[] = [];
  const downloads: RecordingServer['downloads'] = [];
  const keep = options.keepBodyBytes ?? 16 * 1024 * 1024;
  let url = '';

  const answer = (res: ServerResponse, status: number, json: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  };

  const serveVideo = async (req: IncomingMessage, res: ServerResponse) => {
    const video = server.video;
    const record = { path: req.url ?? '', sent: 0, finished: false };
    downloads.push(record);
    const length = video.contentLength ?? 'exact';
    const headers: Record<string, string | number> = { 'content-type': video.contentType ?? 'video/mp4' };
    if (length !== 'none') headers['content-length'] = length === 'exact' ? video.bytes : length;
    res.writeHead(200, headers);
    for (let at = 0; at < video.bytes; at += CHUNK) {
      if (res.destroyed) return;
      const chunk = videoChunk(at, Math.min(CHUNK, video.bytes - at));
      record.sent += chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go).off('close', go);
            resolve();
          };
          res.on('drain', go).on('close', go);
        });
      }
    }
    if (typeof length === 'number' && length > video.bytes) {
      // Fewer bytes than announced: cut the connection as a broken server would.
      res.destroy();
      return;
    }
    res.end();
    record.finished = true;
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && path.startsWith('/files/')) {
      void serveVideo(req, res);
      return;
    }
    const hash = createHash('sha256');
    const uris = new DataUriHasher();
    const kept: Buffer[] = [];
    const record: RecordedBody = {
      path,
      headers: req.headers,
      bytes: 0,
      sha256: '',
      body: undefined,
      images: uris.images,
      aborted: false,
    };
    bodies.push(record);
    req.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      hash.update(chunk);
      uris.update(chunk);
      if (record.bytes <= keep) kept.push(chunk);
    });
    req.on('aborted', () => {
      record.aborted = true;
    });
    req.on('end', () => {
      record.sha256 = hash.digest('hex');
      if (record.bytes <= keep) record.body = Buffer.concat(kept);
      if (path.endsWith('/submit/blend')) {
        answer(res, 200, '{"code":1,"description":"Submitted","result":"1712345678901234567"}');
      } else if (path.includes('/submit/')) {
        const video = server.video;
        answer(
          res,
          200,
          JSON.stringify({
            video: {
              url: `${url}/files/video.mp4`,
              content_type: video.contentType ?? 'video/mp4',
              file_size: video.announcedBytes ?? video.bytes,
            },
            seed: 7,
            status: 'COMPLETED',
            request_id: `req-${bodies.length}`,
          }),
        );
      } else {
        answer(res, 404, '{"code":404,"message":"the recording server answers blend and text-to-video only"}');
      }
    });
  }) as ReturnType<typeof createServer> & { video: VideoSettings };
  server.video = options.video ?? { bytes: 1024 };

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bodies,
    downloads,
    get video() {
      return server.video;
    },
    set video(value: VideoSettings) {
      server.video = value;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
