/**
 * Figures 2 and 3: upload memory (peak RSS growth, ours vs a naive buffered client, each in a fresh
 * process) and upload throughput (the CLI vs curl -F, same emulator, same 256 MiB file).
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, timed } from './processes.ts';
import { type Figure, summarize } from './stats.ts';

const MiB = 1024 * 1024;
const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d4948445200000100000001000806000000', 'hex');

/** A file of `size` bytes that sniffs as PNG (header, then filler): real image bytes are not needed to measure streaming. */
async function makeImage(path: string, size: number) {
  const file = await open(path, 'w');
  const chunk = Buffer.alloc(8 * MiB);
  for (let i = 0; i < chunk.length; i += 64) chunk[i] = i & 0xff;
  await file.write(PNG_HEADER, 0, PNG_HEADER.length, 0);
  for (let written = PNG_HEADER.length; written < size; ) {
    const n = Math.min(chunk.length, size - written);
    await file.write(chunk, 0, n, written);
    written += n;
  }
  await file.close();
}

const child = fileURLToPath(new URL('./upload-child.ts', import.meta.url));
const cli = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));

async function measure(mode: 'ours' | 'naive', op: string, baseUrl: string, files: string[]) {
  const { stdout } = await timed(NODE, ['--expose-gc', child, mode, op, baseUrl, ...files]);
  return JSON.parse(stdout.trim()) as { idle: number; peak: number; growth: number; ms: number };
}

export async function uploads(baseUrl: string, repeats = 3): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-bench-'));
  try {
    const big = join(dir, 'big.png');
    await makeImage(big, 256 * MiB);
    const parts = await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const path = join(dir, `part-${i}.png`);
        await makeImage(path, 64 * MiB);
        return path;
      }),
    );

    const figures: Figure[] = [];
    for (const [op, files, label] of [
      ['image-to-video', [big], 'image-to-video, 256 MiB image'],
      ['blend', parts, 'blend, 4 x 64 MiB images'],
    ] as const) {
      const ours: number[] = [];
      const naive: number[] = [];
      for (let r = 0; r < repeats; r++) {
        ours.push((await measure('ours', op, baseUrl, [...files])).growth / MiB);
        naive.push((await measure('naive', op, baseUrl, [...files])).growth / MiB);
      }
      const o = summarize(ours);
      const n = summarize(naive);
      figures.push({
        name: `upload memory: ${label}`,
        ours: `${o.median.toFixed(0)} MiB peak RSS growth`,
        baseline: `${n.median.toFixed(0)} MiB (naive: whole file read${op === 'blend' ? ', base64 string, JSON.stringify' : ''})`,
        ratio: summarize(ours.map((v, i) => v / naive[i]!)),
        goal: 'growth <= 64 MiB',
        met: o.median <= 64,
        unit: 'x memory',
      });
    }

    // Throughput: the built CLI against curl -F, alternating.
    const cliTimes: number[] = [];
    const curlTimes: number[] = [];
    const env = { ...process.env, MEDIAGW_BASE_URL: baseUrl, MEDIAGW_API_KEY: 'bench-key' };
    for (let r = 0; r < repeats + 2; r++) {
      cliTimes.push((await timed(NODE, [cli, 'image-to-video', '--image', big, '--json'], env)).ms);
      curlTimes.push(
        (
          await timed('curl', [
            '-sS',
            '-f',
            '-o',
            '/dev/null',
            '-H',
            'Authorization: Bearer bench-key',
            '-F',
            `input_image=@${big};type=image/png`,
            `${baseUrl}/video_vendor/m2v_16_img2video_10s`,
          ])
        ).ms,
      );
    }
    const speed = summarize(cliTimes.map((t, i) => curlTimes[i]! / t));
    const mibps = (ms: number) => (256 / (ms / 1000)).toFixed(0);
    figures.push({
      name: 'upload throughput: 256 MiB image-to-video, CLI vs curl -F',
      ours: `${mibps(summarize(cliTimes).median)} MiB/s (${summarize(cliTimes).median.toFixed(0)} ms, process start included)`,
      baseline: `${mibps(summarize(curlTimes).median)} MiB/s (${summarize(curlTimes).median.toFixed(0)} ms)`,
      ratio: speed,
      goal: '>= 0.80 (speed)',
      met: speed.median >= 0.8,
      unit: 'x speed',
    });
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
