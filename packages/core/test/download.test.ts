/**
 * Downloads and local files, against a real server on loopback: a path is checked before anything
 * is sent, nothing that exists is destroyed, every download is capped, failures leave nothing behind.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  blend,
  createClient,
  DownloadError,
  type MediaGatewayClient,
  OutputFile,
  ValidationError,
} from '../src/index.js';
import { KEY, startRecordingServer } from './recording-server.js';

type Server = Awaited<ReturnType<typeof startRecordingServer>>;
let server: Server;
let reply: Parameters<typeof startRecordingServer>[0];
let client: MediaGatewayClient;
let dir: string;

beforeAll(async () => {
  server = await startRecordingServer((req, res, i) => reply(req, res, i));
  dir = await mkdtemp(join(tmpdir(), 'mediagw-download-'));
  client = createClient({ baseUrl: server.url, apiKey: KEY, maxDownloadBytes: 64 * 1024 * 1024 });
});
afterAll(async () => {
  await client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  server.requests.length = 0;
});

const video =
  (bytes = 1000) =>
  (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes) });
    res.end(Buffer.alloc(bytes, 7));
  };

async function refused(path: string, options: { overwrite?: boolean } = {}): Promise<string> {
  try {
    await OutputFile.reserve(path, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues[0]?.message ?? '';
  }
  throw new Error(`expected ${path} to be refused`);
}

describe('a target is checked before anything is sent', () => {
  it('a device is never replaced by a file', async () => {
    expect(await refused('/dev/null', { overwrite: true })).toMatch(
      /is a character device, not a regular file; it is never replaced/,
    );
    expect((await stat('/dev/null')).isCharacterDevice()).toBe(true);
  });

  it('a FIFO, a directory, a dangling link are refused', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await refused(fifo, { overwrite: true })).toMatch(/is a FIFO \(named pipe\)/);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect(await refused(dir)).toMatch(/is a directory; give a file path inside it/);
    const link = join(dir, 'dangling.mp4');
    execFileSync('ln', ['-s', join(dir, 'nowhere'), link]);
    expect(await refused(link)).toMatch(/symbolic link to nothing/);
  });

  it('an existing file is kept unless overwrite is on', async () => {
    const file = join(dir, 'keep.mp4');
    await writeFile(file, 'precious');
    expect(await refused(file)).toMatch(/already exists; choose another path, or set overwrite to replace it/);
    reply = video(10);
    await client.download(`${server.url}/v.mp4`, file, { overwrite: true });
    expect((await readFile(file)).length).toBe(10);
  });

  it('a folder that cannot be made is refused, naming the reason', async () => {
    await writeFile(join(dir, 'a-file'), 'x');
    expect(await refused(join(dir, 'a-file', 'sub', 'v.mp4'))).toMatch(
      /cannot create the folder .*not a directory \(ENOTDIR\)/,
    );
  });
});

describe('downloads', () => {
  it('creates missing folders, leaves no temporary file, sends no key', async () => {
    reply = video(1000);
    const out = join(dir, 'new', 'deep', 'video.mp4');
    const result = await client.download(`${server.url}/files/v.mp4`, out);
    expect(result).toMatchObject({ path: out, bytes: 1000, contentType: 'video/mp4' });
    expect(await readdir(join(dir, 'new', 'deep'))).toEqual(['video.mp4']);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('an HTTP error from the file host: the result exists, nothing left behind, folders it made removed', async () => {
    reply = (_req, res) => {
      res.writeHead(404);
      res.end();
    };
    const error = await client.download(`${server.url}/gone.mp4`, join(dir, 'made', 'v.mp4')).catch((e) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toMatch(/succeeded, but saving its result to .* failed: HTTP 404 from the file host/);
    expect(error.hint).toMatch(/expired or moved/);
    await expect(stat(join(dir, 'made'))).rejects.toThrow(/ENOENT/);
  });

  it('a host that streams forever is stopped at the announced size plus slack', async () => {
    let written = 0;
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => undefined);
      pump();
    };
    const out = join(dir, 'endless.mp4');
    const error = await client.download(`${server.url}/endless`, out, { expectedBytes: 1000 }).catch((e) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toMatch(/more than 1049576 bytes arrived \(the announced 1000 bytes plus slack\)/);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).not.toContain(expect.stringMatching(/\.part$/));
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('without an announced size the client maximum caps it; a larger Content-Length is refused at once', async () => {
    const small = createClient({ baseUrl: server.url, apiKey: KEY, maxDownloadBytes: 100 });
    reply = video(1000);
    const error = await small.download(`${server.url}/big`, join(dir, 'big.mp4')).catch((e) => e);
    await small.close();
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toMatch(/announces 1000 bytes, more than 100 \(the download limit\)/);
  });

  it('a local write failure after the fetch says so, with the OS reason, not a network hint', async () => {
    const folder = join(dir, 'vanishing');
    await mkdir(folder);
    const output = await OutputFile.reserve(join(folder, 'v.mp4'));
    await rm(folder, { recursive: true, force: true });
    reply = video(100);
    const error = await client.download(`${server.url}/v.mp4`, output).catch((e) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error.message).toMatch(/saving its result to .* failed: .*\(ENOENT\)/);
    expect(error.hint).toMatch(/fix the local problem/);
    expect(`${error.message} ${error.hint}`).not.toMatch(/network|could not reach/);
  });
});

describe('an upload the gateway cuts off', () => {
  it('before the body went out whole: sent again (no task can exist); the second attempt succeeds', async () => {
    let attempts = 0;
    // The first time the gateway refuses unread (closes at once), as gateways do with a body they will not take.
    const gateway = createServer((req, res) => {
      attempts++;
      if (attempts === 1) return void req.socket.destroy();
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":1,"result":"1790000000000000123"}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    const header = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const png = Buffer.concat([header, Buffer.alloc(16 * 1024 * 1024, 1)]);
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retry: { baseDelayMs: 10 } });
    try {
      const result = await client.run(blend, { base64Array: [png, png] });
      expect(result.taskId).toBe('1790000000000000123');
      expect(attempts).toBe(2);
    } finally {
      await client.close();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});
