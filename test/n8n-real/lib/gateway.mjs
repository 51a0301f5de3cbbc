// The gateway side: the emulator (in the driver's process), real blends submitted to it with a
// notify hook, and direct deliveries of a notification body (a gateway's repeated delivery).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_VIDEO, startEmulator } from '@mediagw/emulator';
import { REPO_ROOT } from './package.mjs';

export { SAMPLE_VIDEO };

/** Sentinel keys: any appearance in logs, execution data or output is a leak. */
export const sentinelKey = (step) => `sk-SENTINEL-${step}-${Math.random().toString(16).slice(2, 10)}`;

/**
 * The emulator with one pinned key. Notifications are sent once (no retries: a retry is a
 * legitimate second delivery, which would blur "exactly one execution per notification") with a
 * generous per-attempt timeout (n8n under load on 2 cores can take seconds to answer).
 */
export async function startGateway(apiKey, options = {}) {
  return startEmulator({ port: 0, apiKey, notifyRetries: 0, notifyTimeoutMs: 30_000, ...options });
}

/** A test image of the node package (red.png, blue.png, green.jpg). */
export const fixture = (name) => readFileSync(join(REPO_ROOT, 'packages/n8n-nodes-mediagw/test/fixtures', name));
const dataUri = (name) => `data:image/png;base64,${fixture(name).toString('base64')}`;
let images;

/**
 * A real blend on the emulator (two small PNGs), as a gateway client would send it, with
 * `notifyHook` and `state`. Resolves to the task id; the emulator then POSTs the notification to
 * the hook (see `emulator.notifications`).
 */
export async function submitBlend(emulator, apiKey, { notifyHook, state }) {
  images ??= [dataUri('red.png'), dataUri('blue.png')];
  const endpoint = emulator.endpoints.find((e) => e.operation === 'blend');
  const response = await fetch(`${emulator.url}${endpoint.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [emulator.routes.secretHeader]: apiKey },
    body: JSON.stringify({ base64Array: images, notifyHook, state }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`blend on the emulator: HTTP ${response.status} ${text.slice(0, 300)}`);
  // The id has more digits than a double keeps: read it as text.
  const taskId = /"result"\s*:\s*"?(\d+)"?/.exec(text)?.[1];
  if (!taskId) throw new Error(`blend on the emulator: no task id in ${text.slice(0, 300)}`);
  return taskId;
}

/** POSTs a notification body to a hook as the emulator does; resolves to {status, text}. */
export async function deliver(hookUrl, body) {
  const response = await fetch(hookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'mediagw-emulator' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Does the installed trigger de-duplicate repeated deliveries? Read from its description as the
 * running n8n loaded it (a property about duplicates); MGW_TRIGGER_DEDUP=1/0 overrides.
 */
export function triggerDeduplicates(description) {
  if (process.env.MGW_TRIGGER_DEDUP === '1') return true;
  if (process.env.MGW_TRIGGER_DEDUP === '0') return false;
  return (description?.properties ?? []).some((p) => /dedup|duplicate/i.test(`${p.name} ${p.displayName}`));
}
