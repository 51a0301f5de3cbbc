/**
 * Load: 1,000 calls in flight at once through one core client to the emulator. All succeed, the
 * emulator counts exactly 1,000 submissions, and no socket or handle outlives the client.
 */
import { createClient } from '@mediagw/core';
import { startEmulator } from '@mediagw/emulator';
import { expect, it } from 'vitest';

const KEY = 'sk-SENTINEL-load-3c1d';

function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

it('1,000 text-to-video calls in flight: all succeed, none doubled, nothing leaked', async () => {
  const emulator = await startEmulator({ port: 0 });
  const before = handles();
  const client = createClient({ baseUrl: emulator.url, apiKey: KEY });
  const results = await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      client.textToVideo({ prompt: `load test call number ${i} of a thousand`, seed: String(i) }),
    ),
  );
  expect(results.map((r) => r.seed)).toEqual(Array.from({ length: 1000 }, (_, i) => String(i)));
  expect(new Set(results.map((r) => r.requestId)).size).toBe(1000);
  expect(emulator.count('text-to-video')).toBe(1000);
  await client.close();
  await emulator.close();
  // Sockets close asynchronously; give the loop a moment.
  await new Promise((r) => setTimeout(r, 100));
  const after = handles();
  expect(after.TCPSocketWrap ?? 0).toBeLessThanOrEqual(before.TCPSocketWrap ?? 0);
  expect(after.TCPServerWrap ?? 0).toBeLessThan((before.TCPServerWrap ?? 0) + 1);
  expect(after.Timeout ?? 0).toBeLessThanOrEqual((before.Timeout ?? 0) + 2);
}, 60_000);
