/** A real HTTP server on loopback that records what arrives and answers as each test tells it. */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Recorded, res: ServerResponse, index: number) => void | Promise<void>;

export async function startRecordingServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(recorded);
    await handler(recorded, res, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Parses a multipart body with the platform's own parser (undici's Response.formData). */
export async function formData(req: Recorded): Promise<FormData> {
  return new Response(req.body, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
}

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A real 2x2 PNG (checked by decoders), and a tiny JPEG header + body. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000020000000208020000009d19d5a60000001349444154789c63f8cfc0f09f81e13f0303c37f0026f605fb3da2e2f40000000049454e44ae426082',
  'hex',
);
export const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(64, 1),
]);
export const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');

export const KEY = 'sk-SENTINEL-core-5f1e9c';

export const I2V_OK = {
  data: {
    limitation: { limit: 10, remaining: 9, type: 'm2v_img2video' },
    message: '',
    status: 5,
    task: {
      id: 'task-123',
      status: 5,
      type: 'm2v_img2video',
      createTime: 1763780000000,
      updateTime: 1763780000000,
      viewTime: 0,
      viewed: false,
      deleted: false,
      favored: false,
      taskInfo: {
        arguments: [
          { name: 'prompt', value: 'a cat' },
          { name: 'duration', value: '10' },
        ],
        extraArgs: {},
        inputs: [],
        type: 'm2v_img2video',
      },
    },
    userTickets: { ticket: [] },
    works: [],
  },
  message: 'success',
  result: 1,
  status: 200,
  timestamp: [2026, 11, 22, 3, 4, 5, 678000000],
};

export const T2V_OK =
  '{"video":{"url":"http://cdn.test/v.mp4","content_type":"video/mp4","file_size":123456},"seed":196619188014358660,"status":"COMPLETED","request_id":"req-1"}';
