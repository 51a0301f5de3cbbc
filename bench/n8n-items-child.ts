/**
 * Figure 4's runs, in one process with a full n8n's engine (n8n-engine.ts): `items` text-to-video
 * items through our node and through n8n's HTTP Request node, against the emulator (200 ms latency).
 * argv[2]: JSON { gateway, items, rounds }. Prints the times (ms) of every variant and round.
 */
import { type ChainNode, startBenchEngine } from './n8n-engine.ts';

const { gateway, items, rounds } = JSON.parse(process.argv[2] ?? '{}') as {
  gateway: string;
  items: number;
  rounds: number;
};
const KEY = 'bench-key';

const engine = await startBenchEngine({ runner: false });
engine.setCredential('gw', { baseUrl: gateway, apiKey: KEY });
engine.setCredential('bearer', { name: 'Authorization', value: `Bearer ${KEY}` });

const prompts = Array.from({ length: items }, (_, i) => ({
  json: { prompt: `item ${i}: a paper boat on a rainy street` },
}));

const ours = (options: Record<string, unknown>): ChainNode => ({
  name: 'Node',
  type: 'n8n-nodes-mediagw.mediaGateway',
  parameters: { resource: 'video', operation: 'textToVideo', prompt: '={{ $json.prompt }}', download: false, options },
  credentials: { mediaGatewayApi: { id: 'gw', name: 'Media Gateway' } },
});

/** The HTTP Request node as a builder sets it up: POST, Header Auth, JSON body from the item. */
const httpRequest = (options: Record<string, unknown>): ChainNode => ({
  name: 'Node',
  type: 'n8n-nodes-base.httpRequest',
  typeVersion: 4.5,
  parameters: {
    method: 'POST',
    url: `${gateway}/service_prefix/submit/text_video_model`,
    authentication: 'genericCredentialType',
    genericAuthType: 'httpHeaderAuth',
    sendBody: true,
    contentType: 'json',
    bodyParameters: { parameters: [{ name: 'prompt', value: '={{ $json.prompt }}' }] },
    options,
  },
  credentials: { httpHeaderAuth: { id: 'bearer', name: 'bearer' } },
});

const VARIANTS = {
  ours: ours({}),
  oursSequential: ours({ concurrency: 1 }),
  oursAllAtOnce: ours({ concurrency: items }),
  httpRequest: httpRequest({}),
  // Adding "Batching" in the UI starts from these values: 50 items per batch, 1000 ms apart.
  httpRequestBatching: httpRequest({ batching: { batch: { batchSize: 50, batchInterval: 1000 } } }),
} as const;

const time = async (node: ChainNode) => {
  const started = performance.now();
  const { items: out, error } = await engine.run(
    [{ name: 'Prompts', type: 'harness.pinnedItems', parameters: { items: prompts } }, node],
    'Node',
  );
  const ms = performance.now() - started;
  if (error || out.length !== items) throw new Error(`n8n run failed: ${error?.message ?? `${out.length} items`}`);
  return ms;
};

const times: Record<string, number[]> = {};
// Warm the engine, both nodes and the connections.
await time(VARIANTS.ours);
await time(VARIANTS.httpRequest);
for (let r = 0; r < rounds; r++) {
  for (const [name, node] of Object.entries(VARIANTS)) {
    if (name === 'oursSequential' && r > 0) continue; // 40 s a round: once is enough
    const ms = await time(node);
    times[name] = [...(times[name] ?? []), ms];
  }
}
process.stdout.write(`${JSON.stringify(times)}\n`);
await engine.stop();
process.exit(0);
