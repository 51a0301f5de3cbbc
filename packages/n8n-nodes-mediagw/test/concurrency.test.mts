// A recording server of our own (the house rules allow one in a test) that answers text-to-video
// in REVERSE order of arrival, so completion order differs from item order, and counts how many
// requests are in flight at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine, loadPackage, outcomeOf, readWorkflow, withParameters } from './harness.mts';

const KEY = 'sk-SENTINEL-n8n-concurrency-0c4e';
const ITEMS = 7;
const LIMIT = 3;

let server: Server;
let url = '';
let inFlight = 0;
let maxInFlight = 0;
const completed: string[] = [];
const authorizations = new Set<string>();

beforeAll(async () => {
  let arrivals = 0;
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { prompt } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { prompt: string };
    authorizations.add(String(req.headers.authorization));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Within each batch of LIMIT, the first to arrive answers last.
    await sleep(10 + (LIMIT - (arrivals++ % LIMIT)) * 15);
    inFlight--;
    completed.push(prompt);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        video: { url: `${url}/files/${encodeURIComponent(prompt)}.mp4`, content_type: 'video/mp4', file_size: 1 },
        seed: 7,
        status: 'COMPLETED',
        request_id: prompt,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

it(`runs ${ITEMS} items at most ${LIMIT} at a time and keeps their order and pairing`, async () => {
  const engine = new Engine(await loadPackage());
  engine.credentials.set('gw', { baseUrl: url, apiKey: KEY });
  const prompts = Array.from({ length: ITEMS }, (_, i) => `item ${i}: a paper boat drifting down a rainy street`);
  let workflow = withParameters(readWorkflow('text-to-video.json'), 'Prompts', {
    items: prompts.map((prompt) => ({ json: { prompt } })),
  });
  workflow = withParameters(workflow, 'Media Gateway', { download: false, options: { concurrency: LIMIT } });

  const run = await engine.run(workflow);
  expect(JSON.stringify(run)).not.toContain(KEY);
  const { items, error } = outcomeOf(run, 'Media Gateway');
  expect(error).toBeUndefined();
  expect(maxInFlight).toBe(LIMIT);
  expect(completed).not.toEqual(prompts); // answers really came back out of order
  expect(items.map((i) => i.json.requestId)).toEqual(prompts);
  expect(items.map((i) => i.pairedItem)).toEqual(prompts.map((_, item) => ({ item })));
  expect([...authorizations]).toEqual([`Bearer ${KEY}`]);
});
