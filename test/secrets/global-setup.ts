/** Creates the capture folder for the whole run; at the end, fails the run if a key shows up. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every suite's key starts so; the runner's own mask command is the one allowed mention. */
const SENTINEL = /sk-SENTINEL-[\w-]+/;
const ALLOWED = /^::add-mask::/;

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mediagw-captures-'));
  process.env.MEDIAGW_CAPTURE_DIR = dir;
  return () => {
    const files = readdirSync(dir);
    let texts = 0;
    let chars = 0;
    const leaks: string[] = [];
    for (const file of files) {
      const content = readFileSync(join(dir, file), 'utf8');
      chars += content.length;
      for (const record of content.split('\n\u0000\n')) {
        if (!record) continue;
        texts++;
        for (const line of record.split('\n')) {
          const match = SENTINEL.exec(line);
          if (match && !ALLOWED.test(line))
            leaks.push(
              `${file.replace(/-\d+\.txt$/, '')}: ...${line.slice(Math.max(0, match.index - 80), match.index + 40)}...`,
            );
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const sources = [...new Set(files.map((f) => f.replace(/-\d+\.txt$/, '')))].sort();
    if (leaks.length > 0)
      throw new Error(`a sentinel API key leaked into captured output:\n${leaks.slice(0, 10).join('\n')}`);
    console.log(
      `secret scan: ${texts} captured texts (${(chars / 1024).toFixed(0)} KiB) from ${sources.join(', ')}: no key`,
    );
  };
}
