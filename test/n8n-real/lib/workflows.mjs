// Workflow JSON for the scenarios, built in code so each run gets fresh webhook ids.
import { randomUUID } from 'node:crypto';
import { NODE_TYPES } from './package.mjs';

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

/**
 * Webhook (POST /webhook/<path>, answers at once) -> "Which process" (records $env.MGW_PROCESS
 * and the body's `n`) -> Media Gateway Text to Video with "Download Video" on. The prompt carries
 * `n` and the process name, so the emulator's records tell which execution and which worker
 * submitted each task.
 */
export function textToVideoWorkflow({ name = 'mgw text to video', credentialId, path = `t2v-${randomUUID()}` }) {
  const nodes = [
    {
      id: randomUUID(),
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: randomUUID(),
      parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
    },
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
    {
      id: randomUUID(),
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: randomUUID(),
      parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
    },
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
