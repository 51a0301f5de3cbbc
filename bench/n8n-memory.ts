/**
 * Figures 6-9: memory of the n8n process (peak RSS growth while the nodes run) with large binary
 * data, our node against what a builder would use without it, in the same engine (a full n8n
 * 2.41.1's, see n8n-engine.ts), each run in a fresh process (n8n-memory-child.ts), alternating:
 * - image-to-video, 256 MiB image: n8n's HTTP Request node, multipart with the binary as a file;
 * - blend, 4 x 64 MiB images: a Code node turning the binaries into data URIs (n8n's task runner)
 *   and the HTTP Request node sending them as JSON;
 * - a 256 MiB video download: HTTP Request (submit), then HTTP Request (GET, response as a file);
 * - blend, 4 x 150 MiB images: whether it works at all (the images add up beyond V8's string cap).
 * Uploads go to the emulator (its own process); downloads and the large blend to a recording
 * server in this process, which checks the bytes (each data URI decoded and hashed on the fly).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingServer } from '../packages/n8n-nodes-mediagw/test/recording-server.mts';
import { ensureFullN8n } from './n8n-engine.ts';
import type { ChildConfig, Scenario } from './n8n-memory-child.ts';
import { NODE, timed } from './processes.ts';
import { type Figure, summarize } from './stats.ts';

const MiB = 1024 * 1024;
const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d4948445200000100000001000806000000', 'hex');
const child = fileURLToPath(new URL('./n8n-memory-child.ts', import.meta.url));

/** A file of `size` bytes that sniffs as PNG, its filler depending on `seed`; returns its SHA-256. */
async function makeImage(path: string, size: number, seed: number): Promise<string> {
  const file = await open(path, 'w');
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(8 * MiB);
  for (let i = 0; i < chunk.length; i += 64) chunk[i] = (i + seed * 37) & 0xff;
  await file.write(PNG_HEADER, 0, PNG_HEADER.length, 0);
  hash.update(PNG_HEADER);
  for (let written = PNG_HEADER.length; written < size; ) {
    const n = Math.min(chunk.length, size - written);
    await file.write(chunk, 0, n, written);
    hash.update(chunk.subarray(0, n));
    written += n;
  }
  await file.close();
  return hash.digest('hex');
}

interface Measured {
  growth: number;
  runnerGrowth?: number;
  ms: number;
  error?: string;
  items: number;
  binaryBytes?: number;
}

export async function n8nMemory(emulatorUrl: string, repeats: number): Promise<Figure[]> {
  ensureFullN8n();
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-bench-n8n-mem-'));
  // One binary store for the staging process and the measured ones.
  const env = { ...process.env, MEDIAGW_N8N_BINARY_DIR: join(dir, 'store'), N8N_USER_FOLDER: join(dir, 'user') };
  const recorder = await startRecordingServer({ video: { bytes: 256 * MiB }, keepBodyBytes: 0 });
  const run = async (config: ChildConfig, extraEnv: Record<string, string> = {}) => {
    const { stdout } = await timed(NODE, ['--expose-gc', child, JSON.stringify(config)], { ...env, ...extraEnv });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Measured;
  };
  const stage = async (files: string[]) => {
    const { stdout } = await timed(
      NODE,
      [child, JSON.stringify({ variant: 'stage', files, gateway: '', scenario: 'blend' })],
      env,
    );
    const path = join(dir, `items-${files.length}-${Date.now()}.json`);
    await writeFile(path, stdout.trim().split('\n').at(-1)!);
    return path;
  };

  try {
    const big = join(dir, 'big.png');
    await makeImage(big, 256 * MiB, 0);
    const parts = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const path = join(dir, `part-${i}.png`);
        await makeImage(path, 64 * MiB, i + 1);
        return path;
      }),
    );
    const large = [];
    const largeHashes = [];
    for (const i of [0, 1, 2, 3]) {
      const path = join(dir, `large-${i}.png`);
      largeHashes.push(await makeImage(path, 150 * MiB, i + 11));
      large.push(path);
    }
    const staged = { big: await stage([big]), parts: await stage(parts), large: await stage(large) };

    const cases: { scenario: Scenario; label: string; gateway: string; items?: string; baseline: string }[] = [
      {
        scenario: 'image-to-video',
        label: 'image-to-video, 256 MiB image',
        gateway: emulatorUrl,
        items: staged.big,
        baseline: 'HTTP Request node, multipart with the binary',
      },
      {
        scenario: 'blend',
        label: 'blend, 4 x 64 MiB images',
        gateway: emulatorUrl,
        items: staged.parts,
        baseline: 'Code node (data URIs) + HTTP Request node (JSON)',
      },
      {
        scenario: 'download',
        label: '256 MiB video download',
        gateway: recorder.url,
        baseline: 'HTTP Request node x2: submit, GET as file',
      },
    ];
    const figures: Figure[] = [];
    for (const c of cases) {
      const ours: Measured[] = [];
      const base: Measured[] = [];
      for (let r = 0; r < repeats; r++) {
        const config = { scenario: c.scenario, gateway: c.gateway, files: [], items: c.items };
        ours.push(await run({ ...config, variant: 'ours' }));
        base.push(await run({ ...config, variant: 'baseline' }));
      }
      const failed = [...ours, ...base].find((m) => m.error || m.items !== 1);
      if (failed) throw new Error(`n8n memory ${c.label}: ${failed.error ?? `${failed.items} items`}`);
      const o = summarize(ours.map((m) => m.growth / MiB));
      const b = summarize(base.map((m) => m.growth / MiB));
      const runner = base.filter((m) => m.runnerGrowth !== undefined).map((m) => m.runnerGrowth! / MiB);
      figures.push({
        name: `n8n memory: ${c.label}`,
        ours: `${o.median.toFixed(0)} MiB peak RSS growth (${(summarize(ours.map((m) => m.ms)).median / 1000).toFixed(1)} s)`,
        baseline: `${b.median.toFixed(0)} MiB (${c.baseline}; ${(summarize(base.map((m) => m.ms)).median / 1000).toFixed(1)} s)`,
        ratio: summarize(ours.map((m, i) => m.growth / base[i]!.growth)),
        goal: 'growth <= 64 MiB',
        met: o.median <= 64,
        unit: 'x memory',
        notes:
          `n8n process, ${repeats} runs each, growth ours ${ours.map((m) => (m.growth / MiB).toFixed(0)).join('/')} MiB, ` +
          `baseline ${base.map((m) => (m.growth / MiB).toFixed(0)).join('/')} MiB` +
          (runner.length ? `; the task runner process grew ${summarize(runner).median.toFixed(0)} MiB more` : ''),
      });
    }

    // 4 x 150 MiB: ours must work and send every byte; the baseline is run once (it fails).
    recorder.bodies.length = 0;
    const largeConfig = { scenario: 'blend' as const, gateway: recorder.url, files: [], items: staged.large };
    const oursLarge = await run({ ...largeConfig, variant: 'ours' });
    const sent = recorder.bodies.at(-1);
    const exact =
      !oursLarge.error &&
      sent !== undefined &&
      sent.headers['content-length'] === String(sent.bytes) &&
      JSON.stringify(sent.images.map((i) => i.sha256)) === JSON.stringify(largeHashes);
    // n8n's broker cannot serialise a 150 MiB Buffer for the Code node's getBinaryDataBuffer
    // (RangeError: Invalid array length), so the task hangs until the runner's task timeout:
    // 300 s by default, 60 s here to keep the bench short.
    const baseLarge = await run({ ...largeConfig, variant: 'baseline' }, { N8N_RUNNERS_TASK_TIMEOUT: '60' });
    const baseOutcome = baseLarge.error
      ? `fails after ${(baseLarge.ms / 1000).toFixed(0)} s: ${baseLarge.error.slice(0, 160)}`
      : `works (${(baseLarge.growth / MiB).toFixed(0)} MiB)`;
    figures.push({
      name: 'n8n blend, 4 x 150 MiB images (beyond the string cap)',
      ours: exact
        ? `works: ${(oursLarge.growth / MiB).toFixed(0)} MiB peak RSS growth, ${(oursLarge.ms / 1000).toFixed(1)} s, every byte checked`
        : `FAILS: ${oursLarge.error ?? 'bytes differ'}`,
      baseline: `${baseOutcome} (Code node + HTTP Request node)`,
      goal: 'works',
      met: exact,
      unit: '',
      notes: `baseline (task runner timeout 60 s instead of the default 300 s): peak RSS growth ${(baseLarge.growth / MiB).toFixed(0)} MiB before it ended`,
    });
    return figures;
  } finally {
    await recorder.close();
    await rm(dir, { recursive: true, force: true });
  }
}
