// The gateway to talk to: yours if MEDIAGW_BASE_URL and MEDIAGW_API_KEY are set, otherwise a local
// emulator started for the example (no key, no network).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@mediagw/emulator';

/** A fresh temporary folder for what an example writes (sample images, downloads): never the folder you run it from. */
export function exampleDir() {
  return mkdtemp(join(tmpdir(), 'mediagw-example-'));
}

export async function withGateway(run) {
  if (process.env.MEDIAGW_BASE_URL) {
    return run({ baseUrl: process.env.MEDIAGW_BASE_URL, apiKey: process.env.MEDIAGW_API_KEY ?? '' });
  }
  const emulator = await startEmulator({ port: 0 });
  try {
    return await run({ baseUrl: emulator.url, apiKey: 'demo-key' });
  } finally {
    await emulator.close();
  }
}

/** A small real PNG (a colour gradient), made with no dependency beyond node:zlib. */
export { samplePng } from './sample-png.mjs';
