/**
 * `npm run bench`: every figure against the emulator on loopback, each a ratio against a baseline
 * measured in the same run. Prints a table and writes JSON (`--out`, default bench-results.json).
 * `--only overhead,upload,n8n,n8n-memory,action` runs a subset. Benchmarks are not tests: nothing here fails
 * `npm test`; a missed goal is reported, not thrown.
 */
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { actionStart } from './action-start.ts';
import { n8nItems } from './n8n-items.ts';
import { n8nMemory } from './n8n-memory.ts';
import { overhead } from './overhead.ts';
import { startEmulatorProcess } from './processes.ts';
import { type Figure, formatSummary } from './stats.ts';
import { uploads } from './upload.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'bench-results.json' },
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const only = values.only ? new Set(values.only.split(',')) : undefined;
const want = (name: string) => !only || only.has(name);
const quick = values.quick;

const figures: Figure[] = [];
const emulator = await startEmulatorProcess({ maxUploadBytes: 2 * 1024 ** 3 });
try {
  if (want('overhead')) figures.push(...(await overhead(emulator.url, quick ? 400 : 2000, quick ? 2 : 5)));
  if (want('upload')) figures.push(...(await uploads(emulator.url, quick ? 1 : 3)));
  if (want('n8n')) figures.push(...(await n8nItems(quick ? 40 : 200)));
  if (want('n8n-memory')) figures.push(...(await n8nMemory(emulator.url, quick ? 1 : 3)));
  if (want('action')) figures.push(...(await actionStart(emulator.url, quick ? 3 : 9)));
} finally {
  await emulator.close();
}

const rows = figures.map((f) => [
  f.name,
  f.ours,
  f.baseline,
  f.ratio ? `${formatSummary(f.ratio)} ${f.unit}` : 'n/a',
  f.goal,
  f.met ? 'met' : 'MISSED',
]);
const header = ['figure', 'ours', 'baseline', 'ratio: median (IQR)', 'goal', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(`\nmediagw bench — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'})\n`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
const notes = figures.filter((f) => f.notes).map((f) => `- ${f.name}: ${f.notes}`);
if (notes.length) console.log(`\n${notes.join('\n')}`);
await writeFile(
  values.out,
  `${JSON.stringify({ node: process.version, cpus: cpus().length, date: new Date().toISOString(), figures }, null, 2)}\n`,
);
console.log(`\nwritten: ${values.out}`);
