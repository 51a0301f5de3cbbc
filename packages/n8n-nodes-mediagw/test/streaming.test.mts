/**
 * Uploads stream from n8n's binary store and downloads stream into it (issue 12), in n8n's engine
 * against the emulator and a recording server on loopback: the bytes stay exact in both binary
 * modes, Content-Length is the exact count of what is sent, and the download limit holds.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BINARY_STORAGE,
  binaryBytes,
  FIXTURES,
  outcomeOf,
  readWorkflow,
  setBinaryMode,
  storedBinaryPath,
  useEmulator,
  type WorkflowFixture,
  withParameters,
} from './harness.mts';
import { type RecordingServer, startRecordingServer, videoSha256 } from './recording-server.mts';

const KEY = 'sk-SENTINEL-n8n-stream-5c1e';
const NODE = 'Media Gateway';
const KiB = 1024;
const MiB = 1024 * KiB;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const setup = useEmulator(KEY);
const dir = mkdtempSync(join(tmpdir(), 'mediagw-n8n-stream-'));
let recorder: RecordingServer;

/** A file that sniffs as PNG, `size` bytes (odd sizes: not a multiple of 3, several read chunks). */
function pngFile(name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  Buffer.from('89504e470d0a1a0a0000000d49484452000001000000010008060000001f15c489', 'hex').copy(bytes);
  for (let i = 33; i < size; i++) bytes[i] = (i * 7 + (i >> 9)) & 0xff;
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

const big = pngFile('big.png', MiB + 1);
const medium = pngFile('medium.png', 200 * KiB + 2);

beforeAll(async () => {
  recorder = await startRecordingServer();
});
afterAll(async () => {
  setBinaryMode('filesystem');
  await recorder.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(workflow: WorkflowFixture) {
  const result = await setup.engine.run(workflow);
  expect(JSON.stringify(result)).not.toContain(KEY);
  return outcomeOf(result, NODE);
}

const imageToVideo = (file: string) =>
  withParameters(readWorkflow('image-to-video.json'), 'Images', { items: [{ binary: { data: file } }] });

const blend = (files: Record<string, string>) =>
  withParameters(withParameters(readWorkflow('blend.json'), 'Images', { items: [{ binary: files }] }), NODE, {
    binaryPropertyNames: Object.keys(files).join(', '),
  });

/** Every file under the binary store (to see that a failed download left nothing behind). */
function storedFiles(): string[] {
  return (
    readdirSync(BINARY_STORAGE, { recursive: true, withFileTypes: true }) as {
      isFile(): boolean;
      parentPath: string;
      name: string;
    }[]
  )
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

describe.each([
  ['filesystem', /^filesystem/],
  ['memory', undefined],
] as const)('uploads, binary data in %s mode', (mode, idPattern) => {
  beforeAll(() => setBinaryMode(mode));
  afterAll(() => setBinaryMode('filesystem'));

  it('image to video: the emulator hashes exactly the image bytes, sent with a Content-Length', async () => {
    const { items, error } = await run(imageToVideo(big.path));
    expect(error).toBeUndefined();
    expect(items[0]?.json.taskId).toBeTypeOf('string');
    const [request] = setup.emu.requests;
    expect(request?.upload).toMatchObject({ filename: 'big.png', contentType: 'image/png', sha256: sha256(big.bytes) });
    expect(request?.headers['content-length']).toMatch(/^\d+$/);
    expect(request?.headers).not.toHaveProperty('transfer-encoding');
  });

  it('blend: each data URI decodes at the emulator to exactly its image', async () => {
    const { items, error } = await run(blend({ first: big.path, second: medium.path, third: 'red.png' }));
    expect(error).toBeUndefined();
    expect(items[0]?.json.taskId).toMatch(/^\d+$/);
    expect(setup.emu.requests[0]?.images?.map((i) => i.sha256)).toEqual(
      [big.bytes, medium.bytes, readFileSync(join(FIXTURES, 'red.png'))].map(sha256),
    );
  });

  it('blend: Content-Length is the exact number of bytes sent, no chunked encoding', async () => {
    setup.engine.credentials.set('gw', { baseUrl: recorder.url, apiKey: KEY });
    recorder.bodies.length = 0;
    const { error } = await run(blend({ first: big.path, second: medium.path }));
    expect(error).toBeUndefined();
    const [sent] = recorder.bodies;
    expect(sent?.aborted).toBe(false);
    expect(sent?.headers['content-length']).toBe(String(sent?.bytes));
    expect(sent?.headers['transfer-encoding']).toBeUndefined();
    expect(sent?.headers['content-type']).toBe('application/json');
    // The JSON as a parser reads it, and the images the recording server decoded on the fly.
    const json = JSON.parse(sent!.body!.toString('utf8')) as { base64Array: string[] };
    expect(
      json.base64Array.map((uri) => sha256(Buffer.from(uri.replace(/^data:image\/png;base64,/, ''), 'base64'))),
    ).toEqual([big.bytes, medium.bytes].map(sha256));
    expect(sent?.images.map((i) => i.sha256)).toEqual([big.bytes, medium.bytes].map(sha256));
  });

  it('a retried upload (429, then accepted) sends the whole image again', async () => {
    setup.emu.setFault({ status: 429, retryAfter: '0', times: 1 });
    const { error } = await run(imageToVideo(big.path));
    expect(error).toBeUndefined();
    expect(setup.emu.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(setup.emu.requests[1]?.upload?.sha256).toBe(sha256(big.bytes));
  });

  it(`stores the input ${mode === 'filesystem' ? 'by id (streamed)' : 'in the item (no id)'}`, async () => {
    // The premise of this block: the binary mode really is what it says.
    const source = await setup.engine.run(imageToVideo(big.path));
    const binary = (source.data.resultData.runData.Images?.[0]?.data?.main?.[0]?.[0] as INodeExecutionData).binary
      ?.data;
    if (idPattern) expect(binary?.id).toMatch(idPattern);
    else expect(binary?.id).toBeUndefined();
  });
});

describe('an upload the gateway cuts off', () => {
  it('is sent again (no task can exist), and named for what it is when retries run out', async () => {
    // Dropped as soon as the headers arrive, 8 MiB still to send: Node's HTTP client fails with
    // EPIPE/ECONNRESET; an early 401/413/429 followed by a close ends the same way.
    const huge = pngFile('huge.png', 8 * MiB);
    setup.emu.setFault({ dropUnread: true });
    const { error } = await run(imageToVideo(huge.path));
    // n8n words the message of a connection error itself; ours is the description.
    expect(error?.description).toMatch(
      /^image-to-video: the gateway at 127\.0\.0\.1:\d+ closed the connection before the whole request was sent \((EPIPE|ECONNRESET)\), so no task was created/,
    );
    expect(setup.emu.requests).toHaveLength(3);
  });
});

describe('a stored image whose bytes differ from its recorded size', () => {
  /** Stores the image in one run; the next run sends those items (with their binary ids) on. */
  async function storedItems(file: string): Promise<INodeExecutionData[]> {
    const staged = await setup.engine.run(imageToVideo(file));
    return staged.data.resultData.runData.Images?.[0]?.data?.main?.[0] as INodeExecutionData[];
  }

  const sendPinned = (items: INodeExecutionData[]) => {
    const workflow = readWorkflow('image-to-video.json');
    const images = workflow.nodes.find((n) => n.name === 'Images')!;
    images.type = 'harness.pinnedItems';
    images.parameters = { items: items as never };
    return run(workflow);
  };

  it.each([
    ['longer', (path: string) => appendFileSync(path, Buffer.alloc(10)), /it has more than 1048577 bytes/],
    ['shorter', (path: string) => truncateSync(path, 1000), /it has 1000 bytes/],
  ])('%s than recorded: the item fails naming the field, and the gateway gets no complete body', async (_, change, says) => {
    const items = await storedItems(big.path);
    change(storedBinaryPath(items[0]!.binary!.data!.id!));
    setup.emu.reset();
    const { error } = await sendPinned(items);
    expect(error?.message).toMatch(/Could not send binary field "data"/);
    expect(error?.message).toMatch(says);
    expect(error?.message).toMatch(/where n8n's binary data store said 1048577/);
    expect(setup.emu.requests.filter((r) => r.status === 200)).toEqual([]);
  });
});

describe('downloads stream into binary data, within a limit', () => {
  const textToVideo = () => readWorkflow('text-to-video.json');

  beforeAll(() => {
    recorder.downloads.length = 0;
  });

  it.each([
    'filesystem',
    'memory',
  ] as const)('%s mode: a 5 MiB video arrives exact, with its type and file name', async (mode) => {
    setBinaryMode(mode);
    try {
      setup.engine.credentials.set('gw', { baseUrl: recorder.url, apiKey: KEY });
      recorder.video = { bytes: 5 * MiB + 7 };
      const { items, error } = await run(textToVideo());
      expect(error).toBeUndefined();
      const video = items[0]?.binary?.video;
      expect(video).toMatchObject({ mimeType: 'video/mp4', fileName: 'video.mp4', fileExtension: 'mp4' });
      if (mode === 'filesystem') expect(video?.id).toMatch(/^filesystem/);
      expect(sha256(await binaryBytes(items[0]!, 'video'))).toBe(videoSha256(5 * MiB + 7));
    } finally {
      setBinaryMode('filesystem');
    }
  });

  it('stops a download that outgrows its announced size (plus slack) and keeps nothing of it', async () => {
    setup.engine.credentials.set('gw', { baseUrl: recorder.url, apiKey: KEY });
    // Announced 1 MiB (limit 2 MiB), no Content-Length, 6 MiB sent: only counting can stop it.
    recorder.video = { bytes: 6 * MiB, announcedBytes: MiB, contentLength: 'none' };
    const before = storedFiles();
    const { error } = await run(textToVideo());
    expect(error?.message).toBe(
      'text-to-video succeeded, but saving its result failed: more than 2097152 bytes arrived (the announced 1048576 bytes plus slack); nothing was stored',
    );
    expect(error?.description).toContain(`The video exists: ${recorder.url}/files/video.mp4.`);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses at once a download whose Content-Length is beyond the limit', async () => {
    setup.engine.credentials.set('gw', { baseUrl: recorder.url, apiKey: KEY });
    recorder.video = { bytes: 8 * MiB, announcedBytes: MiB };
    const before = storedFiles();
    const { error } = await run(textToVideo());
    expect(error?.message).toBe(
      'text-to-video succeeded, but saving its result failed: the file host announces 8388608 bytes, more than 2097152 (the announced 1048576 bytes plus slack); nothing was stored',
    );
    expect(error?.description).toContain('The video exists:');
    expect(storedFiles()).toEqual(before);
  });

  it('fails a download that breaks off before its Content-Length, keeping nothing', async () => {
    setup.engine.credentials.set('gw', { baseUrl: recorder.url, apiKey: KEY });
    recorder.video = { bytes: 3 * MiB, contentLength: 4 * MiB, announcedBytes: 4 * MiB };
    const before = storedFiles();
    const { error } = await run(textToVideo());
    // Node reports the short answer as an aborted stream, or as an early end: either way, nothing kept.
    expect(error?.message).toMatch(
      /saving its result failed: (the answer ended after \d+ of the 4194304 bytes it announced|the download broke off \(aborted\)); nothing was stored/,
    );
    expect(error?.description).toContain('The video exists:');
    expect(storedFiles()).toEqual(before);
  });
});
