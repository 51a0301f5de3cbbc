// Workflow JSON for the scenarios, built in code so each run gets fresh webhook ids.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { fixture } from './gateway.mjs';
import { NODE_TYPES, REPO_ROOT } from './package.mjs';

const connect = (...names) =>
  Object.fromEntries(
    names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
  );

/** A Set node that records which n8n process ran it ($env.MGW_PROCESS) plus extra fields. */
export function processTagNode(name, extra = []) {
  return {
    id: randomUUID(),
    name,
    type: 'n8n-nodes-base.set',
    typeVersion: 3.4,
    position: [220, 0],
    parameters: {
      mode: 'manual',
      assignments: {
        assignments: [
          { id: randomUUID(), name: 'process', value: '={{ $env.MGW_PROCESS }}', type: 'string' },
          ...extra.map(([field, value, type = 'string']) => ({ id: randomUUID(), name: field, value, type })),
        ],
      },
      includeOtherFields: false,
      options: {},
    },
  };
}

/**
 * Media Gateway Trigger -> "Notified" (no-op). Production URL:
 * `<N8N_WEBHOOK_URL>webhook/<path>?token=<token>` with `path` as returned.
 * `triggerParameters` adds parameters (a later de-duplication option, say).
 */
export function triggerWorkflow({ name = 'mgw trigger', token, triggerParameters = {} }) {
  const webhookId = randomUUID();
  const nodes = [
    {
      id: randomUUID(),
      name: 'Media Gateway Trigger',
      type: NODE_TYPES.trigger,
      typeVersion: 1,
      position: [0, 0],
      webhookId,
      parameters: { token, ...triggerParameters },
    },
    {
      id: randomUUID(),
      name: 'Notified',
      type: 'n8n-nodes-base.noOp',
      typeVersion: 1,
      position: [220, 0],
      parameters: {},
    },
  ];
  return {
    workflow: { name, nodes, connections: connect('Media Gateway Trigger', 'Notified') },
    path: `${webhookId}/mediagw`,
    triggerNode: 'Media Gateway Trigger',
  };
}

/** A Webhook node (POST /webhook/<path>) that answers at once, as the first node of a test workflow. */
const webhookNode = (path) => ({
  id: randomUUID(),
  name: 'Webhook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  position: [0, 0],
  webhookId: randomUUID(),
  parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
});

/**
 * Webhook (POST /webhook/<path>, answers at once) -> "Which process" (records $env.MGW_PROCESS
 * and the body's `n`) -> Media Gateway Text to Video with "Download Video" on. The prompt carries
 * `n` and the process name, so the emulator's records tell which execution and which worker
 * submitted each task.
 */
export function textToVideoWorkflow({ name = 'mgw text to video', credentialId, path = `t2v-${randomUUID()}` }) {
  const nodes = [
    webhookNode(path),
    processTagNode('Which process', [['n', '={{ $json.body.n }}', 'number']]),
    {
      id: randomUUID(),
      name: 'Media Gateway',
      type: NODE_TYPES.gateway,
      typeVersion: 1,
      position: [440, 0],
      parameters: {
        resource: 'video',
        operation: 'textToVideo',
        prompt:
          '=A red fox trots through fresh snow at dawn, low sun behind pine trees, cinematic [take {{ $json.n }} on {{ $json.process }}]',
        download: true,
        binaryPropertyName: 'data',
        options: { num_inference_steps: 30, guidance_scale: 6 },
      },
      credentials: { mediaGatewayApi: { id: credentialId, name: 'Media Gateway (emulator)' } },
    },
  ];
  return {
    workflow: { name, nodes, connections: connect('Webhook', 'Which process', 'Media Gateway') },
    path,
  };
}

/** Reads `[take <n> on <process>]` back from a prompt the emulator recorded. */
export function takeOf(prompt) {
  const match = /\[take (\d+) on ([^\]]+)\]/.exec(String(prompt ?? ''));
  return match ? { n: Number(match[1]), process: match[2] } : undefined;
}

/**
 * Webhook (POST multipart: each file field becomes a binary property) -> Media Gateway Blend of
 * all the item's binaries, with `notifyHook` (a trigger's production URL, or later the
 * execution's own resume URL) and the form field `state` echoed as the blend state.
 * `blendOptions` adds options (for example a wait-for-result switch once the node has one).
 */
export function blendWorkflow({
  name = 'mgw blend',
  credentialId,
  notifyHook,
  blendOptions = {},
  path = `blend-${randomUUID()}`,
}) {
  const nodes = [
    webhookNode(path),
    {
      id: randomUUID(),
      name: 'Media Gateway',
      type: NODE_TYPES.gateway,
      typeVersion: 1,
      position: [220, 0],
      parameters: {
        resource: 'image',
        operation: 'blend',
        images: 'all',
        options: { notifyHook, state: '={{ $json.body.state }}', ...blendOptions },
      },
      credentials: { mediaGatewayApi: { id: credentialId, name: 'Media Gateway (emulator)' } },
    },
  ];
  return { workflow: { name, nodes, connections: connect('Webhook', 'Media Gateway') }, path };
}

/** Where the examples read their input images (n8n's default file access folder in Docker). */
export const EXAMPLE_FILES = '/home/node/.n8n-files/mediagw';
/** The credential id the examples name. */
export const EXAMPLE_CREDENTIAL_ID = 'mediagw-emulator';

/** A solid-colour RGB PNG (for a third blend input: the fixtures hold two PNGs). */
export function solidPng(width, height, [r, g, b]) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The examples' input folder for a step: `<dir>/blend/` with red.png and blue.png (the node's test
 * fixtures) and green.png (made here), so a blend reads three images and a fan-out has three items.
 * Give n8n this folder as N8N_RESTRICT_FILE_ACCESS_TO (baseEnv's `fileAccess`).
 */
export async function writeExampleFiles(dir) {
  await mkdir(join(dir, 'blend'), { recursive: true });
  const files = {
    'red.png': fixture('red.png'),
    'blue.png': fixture('blue.png'),
    'green.png': solidPng(24, 24, [20, 160, 60]),
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, 'blend', name), bytes);
  return { dir, images: Object.values(files) };
}

/**
 * An example of examples/n8n as a step deploys it: image paths pointed at the step's own folder
 * (as run.mjs does), the credential id replaced by the step's (inline sub-workflows included: the
 * replacement works on the file's text). Returns the parsed workflow.
 */
export function exampleWorkflow(file, { filesDir, credentialId }) {
  const text = readFileSync(join(REPO_ROOT, 'examples/n8n', file), 'utf8');
  return JSON.parse(
    text
      .replaceAll(EXAMPLE_FILES, filesDir)
      .replaceAll(`"${EXAMPLE_CREDENTIAL_ID}"`, `"${credentialId}"`)
      .replaceAll(`\\"${EXAMPLE_CREDENTIAL_ID}\\"`, `\\"${credentialId}\\"`),
  );
}

/**
 * examples/n8n/blend-wait.json (production Webhook -> Read images -> Aggregate -> Media Gateway Blend
 * with Wait for Result; error output -> Stop and Error), deployable more than once: its own webhook
 * path and id, `timeLimitMinutes` if given, and with `processTag` a "Which process" node after
 * "Blended image" (which process ran the resumed part).
 */
export function blendWaitWorkflow({
  name = 'mgw blend wait',
  filesDir,
  credentialId,
  timeLimitMinutes,
  processTag = false,
  path = `blend-wait-${randomUUID()}`,
}) {
  const workflow = exampleWorkflow('blend-wait.json', { filesDir, credentialId });
  const webhook = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
  webhook.webhookId = randomUUID();
  webhook.parameters.path = path;
  const gateway = workflow.nodes.find((n) => n.type === NODE_TYPES.gateway);
  if (timeLimitMinutes !== undefined)
    gateway.parameters.waitOptions = { ...gateway.parameters.waitOptions, timeLimitMinutes };
  if (processTag) {
    workflow.nodes.push({ ...processTagNode('Which process'), position: [1120, -100] });
    workflow.connections['Blended image'] = { main: [[{ node: 'Which process', type: 'main', index: 0 }]] };
  }
  return { workflow: { ...workflow, name }, path, gatewayNode: gateway.name };
}
