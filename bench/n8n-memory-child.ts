/**
 * One n8n workflow run in a fresh process, reporting the peak RSS growth of this process (the n8n
 * engine) while the measured nodes run, and of n8n's task runner when the Code node is used.
 * argv[2]: JSON { scenario, variant: 'ours' | 'baseline' | 'stage', gateway, files, items? }.
 *
 * Inputs are staged by another process ('stage': streamed into n8n's binary store, filesystem
 * mode, as a default n8n 2.x keeps them; it prints the items), sharing the store through
 * MEDIAGW_N8N_BINARY_DIR, so this process never touched the image bytes before. After a GC the
 * kernel's peak-RSS mark (VmHWM) is reset and the workflow runs: Pinned (the staged items) -> the
 * nodes under test; growth = peak - RSS at the reset.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChainNode, rss, startBenchEngine } from './n8n-engine.ts';

export type Scenario = 'image-to-video' | 'blend' | 'download';
export interface ChildConfig {
  scenario: Scenario;
  variant: 'ours' | 'baseline' | 'stage';
  gateway: string;
  files: string[];
  /** A JSON file with the staged items (measuring runs). */
  items?: string;
}

const KEY = 'bench-key';
const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const { scenario, variant, gateway } = config;

const ours = (parameters: Record<string, unknown>): ChainNode => ({
  name: 'Media Gateway',
  type: 'n8n-nodes-mediagw.mediaGateway',
  parameters,
  credentials: { mediaGatewayApi: { id: 'gw', name: 'Media Gateway' } },
});

/** n8n's HTTP Request node (latest version) with a Header Auth credential, as a builder sets it up. */
const httpRequest = (name: string, credential: string | undefined, parameters: Record<string, unknown>): ChainNode => ({
  name,
  type: 'n8n-nodes-base.httpRequest',
  typeVersion: 4.5,
  parameters: {
    ...(credential ? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' } : {}),
    options: {},
    ...parameters,
  },
  ...(credential ? { credentials: { httpHeaderAuth: { id: credential, name: credential } } } : {}),
});

/** What a user writes in a Code node to turn an item's binaries into data URIs. */
const DATA_URIS_CODE = `const results = [];
for (const [index, item] of $input.all().entries()) {
  const base64Array = [];
  for (const [name, binary] of Object.entries(item.binary ?? {})) {
    const buffer = await this.helpers.getBinaryDataBuffer(index, name);
    base64Array.push(\`data:\${binary.mimeType};base64,\${buffer.toString('base64')}\`);
  }
  results.push({ json: { base64Array } });
}
return results;`;

const PROMPT = 'a paper boat drifting down a rainy street at dusk, reflections, slow camera';

const chains: Record<Scenario, Record<'ours' | 'baseline', ChainNode[]>> = {
  'image-to-video': {
    ours: [ours({ resource: 'video', operation: 'imageToVideo', binaryPropertyName: 'data', prompt: PROMPT })],
    baseline: [
      httpRequest('HTTP Request', 'bearer', {
        method: 'POST',
        url: `${gateway}/video_vendor/m2v_16_img2video_10s`,
        sendBody: true,
        contentType: 'multipart-form-data',
        bodyParameters: {
          parameters: [
            { parameterType: 'formBinaryData', name: 'input_image', inputDataFieldName: 'data' },
            { parameterType: 'formData', name: 'prompt', value: PROMPT },
          ],
        },
      }),
    ],
  },
  blend: {
    ours: [ours({ resource: 'image', operation: 'blend', images: 'all' })],
    baseline: [
      {
        name: 'Code',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        parameters: { language: 'javaScript', mode: 'runOnceForAllItems', jsCode: DATA_URIS_CODE },
      },
      httpRequest('HTTP Request', 'secret', {
        method: 'POST',
        url: `${gateway}/image_relax_prefix/submit/blend`,
        sendBody: true,
        contentType: 'json',
        specifyBody: 'json',
        jsonBody: '={{ $json }}',
      }),
    ],
  },
  download: {
    ours: [
      ours({ resource: 'video', operation: 'textToVideo', prompt: PROMPT, download: true, binaryPropertyName: 'data' }),
    ],
    baseline: [
      httpRequest('Submit', 'bearer', {
        method: 'POST',
        url: `${gateway}/service_prefix/submit/text_video_model`,
        sendBody: true,
        contentType: 'json',
        bodyParameters: { parameters: [{ name: 'prompt', value: PROMPT }] },
      }),
      httpRequest('HTTP Request', undefined, {
        method: 'GET',
        url: '={{ $json.video.url }}',
        options: { response: { response: { responseFormat: 'file' } } },
      }),
    ],
  },
};

if (variant === 'stage') {
  const engine = await startBenchEngine({ runner: false });
  process.stdout.write(`${JSON.stringify(await engine.stage(config.files))}\n`);
  process.exit(0);
}

const chain = chains[scenario][variant];
const usesCode = chain.some((n) => n.type === 'n8n-nodes-base.code');
const engine = await startBenchEngine({ runner: usesCode });
engine.setCredential('gw', { baseUrl: gateway, apiKey: KEY });
engine.setCredential('bearer', { name: 'Authorization', value: `Bearer ${KEY}` });
engine.setCredential('secret', { name: 'img-api-secret', value: KEY });

const staged = config.items ? JSON.parse(readFileSync(config.items, 'utf8')) : [{ json: {} }];
const workflow: ChainNode[] = [
  { name: 'Pinned', type: 'harness.pinnedItems', parameters: { items: staged } },
  ...chain,
];

globalThis.gc?.();
await sleep(200);
globalThis.gc?.();
const runner = engine.runnerPid;
rss.reset();
if (runner) rss.reset(runner);
const idle = rss.read().rss;
const runnerIdle = runner ? rss.read(runner).rss : 0;
const started = performance.now();
const outcome = await engine.run(workflow, chain.at(-1)!.name);
const ms = performance.now() - started;
const { peak } = rss.read();
const runnerPeak = runner ? rss.read(runner).peak : 0;

const first = outcome.items[0];
process.stdout.write(
  `${JSON.stringify({
    idle,
    peak,
    growth: peak - idle,
    runnerGrowth: runner ? runnerPeak - runnerIdle : undefined,
    ms,
    error: outcome.error
      ? `${outcome.error.message}${outcome.error.description ? ` (${outcome.error.description})` : ''}`
      : undefined,
    items: outcome.items.length,
    binaryBytes: first?.binary?.data?.bytes,
    status: first?.json.status ?? first?.json.statusCode,
  })}\n`,
);
await engine.stop();
process.exit(0);
