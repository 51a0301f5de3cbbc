/**
 * Figure 1: per-call overhead of @mediagw/core against bare `undici.request` making the same
 * text-to-video request to the same zero-latency emulator (in its own process).
 */
import { createClient } from '@mediagw/core';
import { Agent, request } from 'undici';
import { type Figure, summarize } from './stats.ts';

const BODY = { prompt: 'a lighthouse in a storm at night, waves crashing on the rocks', num_inference_steps: 20 };
const KEY = 'bench-key';

export async function overhead(baseUrl: string, calls = 2000, rounds = 5): Promise<Figure[]> {
  const client = createClient({ baseUrl, apiKey: KEY });
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const url = `${baseUrl}/service_prefix/submit/text_video_model`;
  const text = JSON.stringify(BODY);
  const bare = async () => {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: text,
    });
    const json = (await res.body.json()) as { video: { url: string } };
    if (res.statusCode !== 200 || !json.video.url) throw new Error('bare call failed');
  };
  const ours = async () => {
    const result = await client.textToVideo(BODY);
    if (!result.videoUrl) throw new Error('core call failed');
  };

  // Warm both paths (JIT, connections).
  for (let i = 0; i < 200; i++) {
    await bare();
    await ours();
  }

  const perRound = Math.floor(calls / rounds);
  const latencyRatios: number[] = [];
  const oursMedians: number[] = [];
  const bareMedians: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const times = { ours: [] as number[], bare: [] as number[] };
    // Alternate call by call so drift (GC, the other core) hits both alike.
    for (let i = 0; i < perRound; i++) {
      for (const [name, fn] of (i + r) % 2
        ? ([
            ['ours', ours],
            ['bare', bare],
          ] as const)
        : ([
            ['bare', bare],
            ['ours', ours],
          ] as const)) {
        const t = performance.now();
        await fn();
        times[name].push(performance.now() - t);
      }
    }
    const o = summarize(times.ours).median;
    const b = summarize(times.bare).median;
    oursMedians.push(o);
    bareMedians.push(b);
    latencyRatios.push(o / b);
  }

  const throughput = async (fn: () => Promise<void>, n: number, concurrency: number) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < n) await fn();
      }),
    );
    return n / ((performance.now() - started) / 1000);
  };
  // Rounds long enough to measure (a 400-call round at ~10k calls/s lasted 40 ms: noise),
  // after a warm-up at the same concurrency so both pools hold their connections.
  await throughput(ours, 500, 32);
  await throughput(bare, 500, 32);
  const tputRatios: number[] = [];
  const tputOurs: number[] = [];
  const tputBare: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const oursFirst = r % 2 === 1;
    const a = await throughput(oursFirst ? ours : bare, calls, 32);
    const b = await throughput(oursFirst ? bare : ours, calls, 32);
    const [o, bb] = oursFirst ? [a, b] : [b, a];
    tputOurs.push(o);
    tputBare.push(bb);
    tputRatios.push(o / bb);
  }
  await client.close();
  await agent.close();

  const lat = summarize(latencyRatios);
  const tput = summarize(tputRatios);
  return [
    {
      name: 'overhead: per-call median latency (sequential)',
      ours: `${summarize(oursMedians).median.toFixed(3)} ms`,
      baseline: `${summarize(bareMedians).median.toFixed(3)} ms (bare undici.request)`,
      ratio: lat,
      goal: '<= 1.10',
      met: lat.median <= 1.1,
      unit: 'x latency',
      notes: `${perRound * rounds} calls each, ${rounds} rounds`,
    },
    {
      name: 'overhead: throughput at concurrency 32',
      ours: `${summarize(tputOurs).median.toFixed(0)} calls/s`,
      baseline: `${summarize(tputBare).median.toFixed(0)} calls/s (bare undici.request)`,
      ratio: tput,
      goal: '>= 0.90',
      met: tput.median >= 0.9,
      unit: 'x throughput',
      notes: `${calls} calls per round, ${rounds} rounds, after a warm-up at concurrency 32`,
    },
  ];
}
