/** Real images, a loopback hook server and a plain HTTP helper for the emulator's tests. */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blend, createClient, DEFAULT_ROUTES, imageToVideo, routePath, textToVideo } from '@mediagw/core';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { type FormData, request } from 'undici';
import type { Emulator } from '../src/index.js';

export const KEY = 'sk-SENTINEL-emulator-7c41d2';

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

type Rgba = [number, number, number, number];

/** A real PNG of one colour, encoded by pngjs. */
export function solidPng(width: number, height: number, [r, g, b, a]: Rgba): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([r, g, b, a], i * 4);
  return PNG.sync.write(png);
}

/** A real JPEG of one colour, encoded by jpeg-js. */
export function solidJpeg(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([r, g, b, 255], i * 4);
  return jpeg.encode({ data, width, height }, 95).data;
}

/** GIF bytes: a real image type the emulator does not decode. */
export const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');

export const dataUri = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

export function clientFor(emu: Emulator, options: { retries?: number; apiKey?: string } = {}) {
  return createClient({
    baseUrl: emu.url,
    apiKey: options.apiKey ?? KEY,
    retry: { retries: options.retries ?? 0 },
    ...emu.routes,
  });
}

export const paths = (routes = DEFAULT_ROUTES) => ({
  imageToVideo: `/${routePath(imageToVideo.route, routes)}`,
  textToVideo: `/${routePath(textToVideo.route, routes)}`,
  blend: `/${routePath(blend.route, routes)}`,
});

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/** A plain POST (undici.request), for what the core client would never send. */
export async function post(
  url: string,
  body: string | FormData | undefined,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await request(url, { method: 'POST', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

export const bearer = (key = KEY) => ({ authorization: `Bearer ${key}` });
export const jsonHeaders = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  ...extra,
});

/** A loopback server that records notifications and answers each with the status `answer` picks. */
export async function startHookServer(answer: (index: number) => number = () => 200) {
  const received: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
  let attempts = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const status = answer(attempts++);
    if (status < 300) received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
    res.writeHead(status).end(`answered ${status}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?signature=abc`,
    received,
    attempts: () => attempts,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
