// The gateway to talk to: yours if MEDIAGW_BASE_URL and MEDIAGW_API_KEY are set, otherwise a local
// emulator started for the example (no key, no network).
import { startEmulator } from '@mediagw/emulator';

/** Where the examples write what they make: a folder of its own (git ignores it), never over your files. */
export const OUTPUT = 'mediagw-example-output';

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
