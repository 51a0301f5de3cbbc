/** A one-route loopback server standing in for the caller's notifyHook endpoint in the demo. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** The first notification's JSON body, or a rejection after `timeoutMs`. */
  first(timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const { promise, resolve } = Promise.withResolvers<unknown>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(204).end();
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        // Not JSON: keep waiting for a readable one.
      }
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/blend-done`,
    first: (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no notification within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}
