/**
 * Figure 4: 200 text-to-video items at 200 ms gateway latency in n8n's engine (a full n8n 2.41.1's,
 * see n8n-engine.ts, in a child process): our node at its default concurrency against n8n's HTTP
 * Request node as a builder sets it up, with its default settings (every item's request at once)
 * and with Batching added (its UI starts at 50 items per batch, 1000 ms apart); and against our
 * node at concurrency 1. Our node with Concurrency = items is measured too, for the notes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, startEmulatorProcess, timed } from './processes.ts';
import { type Figure, summarize } from './stats.ts';

const child = fileURLToPath(new URL('./n8n-items-child.ts', import.meta.url));

export async function n8nItems(items: number): Promise<Figure[]> {
  const emulator = await startEmulatorProcess({ fault: { latencyMs: 200 } });
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-bench-n8n-items-'));
  try {
    const env = { ...process.env, N8N_USER_FOLDER: dir, MEDIAGW_N8N_BINARY_DIR: dir };
    const { stdout } = await timed(NODE, [child, JSON.stringify({ gateway: emulator.url, items, rounds: 3 })], env);
    const times = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<
      'ours' | 'oursSequential' | 'oursAllAtOnce' | 'httpRequest' | 'httpRequestBatching',
      number[]
    >;
    const s = (ms: number[]) => `${(summarize(ms).median / 1000).toFixed(2)} s`;
    const ours = summarize(times.ours).median;
    const against = (name: string, base: number[], baseline: string, goal: 'time' | 'default'): Figure => ({
      name: `n8n items: ${items} text-to-video items, 200 ms latency${name}`,
      ours: `${s(times.ours)} (default concurrency)`,
      baseline: `${s(base)} (${baseline})`,
      ratio: summarize(times.ours.map((t, i) => t / (base[i] ?? summarize(base).median))),
      goal: goal === 'time' ? '<= baseline' : `<= 4 s at ${items === 200 ? '' : `${items} items scaled: `}default`,
      met: goal === 'time' ? ours <= summarize(base).median : ours <= 4000 * (items / 200),
      unit: 'x time',
    });
    const vsDefault = against(', vs HTTP Request', times.httpRequest, 'HTTP Request node, default settings', 'time');
    vsDefault.notes =
      `the HTTP Request node sends every item's request at once; our node with Concurrency ${items} takes ` +
      `${s(times.oursAllAtOnce)}, at its default of 16 the items go in waves of 16`;
    return [
      vsDefault,
      against(
        ', vs HTTP Request with Batching',
        times.httpRequestBatching,
        'HTTP Request node, Batching 50 / 1000 ms',
        'time',
      ),
      against('', times.oursSequential, 'our node at concurrency 1', 'default'),
    ];
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}
