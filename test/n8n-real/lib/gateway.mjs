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

/** Runs `fn` with the emulator's fault set to `fault`, and clears the fault afterwards whatever happens. */
export async function withFault(emulator, fault, fn) {
  emulator.setFault(fault);
  try {
    return await fn();
  } finally {
    emulator.setFault(undefined);
  }
}

/**
 * A real blend on the emulator (two small PNGs), as a gateway client would send it, with
 * `notifyHook`, `state` and optionally an `x-emulator-fault` header (`fault`). Resolves to the task id; the emulator then POSTs the notification to
 * the hook (see `emulator.notifications`).
 */
export async function submitBlend(emulator, apiKey, { notifyHook, state, fault }) {
  images ??= [dataUri('red.png'), dataUri('blue.png')];
  const endpoint = emulator.endpoints.find((e) => e.operation === 'blend');
  const response = await fetch(`${emulator.url}${endpoint.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [emulator.routes.secretHeader]: apiKey,
      // This request's fault only (e.g. "notify-repeat=2": the gateway delivers the final notification twice).
      ...(fault ? { 'x-emulator-fault': fault } : {}),
    },
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
 * running n8n loaded it: a property about duplicates or repeats, at the top or inside a collection
 * (the trigger's Options -> "Ignore Repeats Within (Minutes)", `repeatWindowMinutes`). Returns the
 * property (truthy) or undefined; MGW_TRIGGER_DEDUP=1/0 overrides.
 */
export function triggerDeduplicates(description) {
  if (process.env.MGW_TRIGGER_DEDUP === '1') return { name: '(forced by MGW_TRIGGER_DEDUP=1)' };
  if (process.env.MGW_TRIGGER_DEDUP === '0') return undefined;
  const about = (p) => /dedup|duplicate|repeat/i.test(`${p.name} ${p.displayName}`) && p.type !== 'notice';
  // A collection's options are properties; a fixed collection's options hold them in `values`;
  // a dropdown's options ({name, value}) are neither.
  const children = (p) =>
    (p.options ?? []).flatMap((o) => (o && typeof o === 'object' ? ('type' in o ? [o] : (o.values ?? [])) : []));
  const walk = (properties = []) => {
    for (const p of properties) {
      const found = about(p) ? p : walk(children(p));
      if (found) return found;
    }
    return undefined;
  };
  return walk(description?.properties);
}
