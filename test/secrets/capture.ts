/**
 * Every text an end-to-end suite captured (stdout, stderr, Action outputs and summaries, n8n run
 * data, error serialisations) is appended here, and the run's global teardown scans it all for any
 * sentinel key (`sk-SENTINEL-...`). Outside a vitest run (no MEDIAGW_CAPTURE_DIR) it does nothing.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export function capture(source: string, ...texts: unknown[]): void {
  const dir = process.env.MEDIAGW_CAPTURE_DIR;
  if (!dir) return;
  const record = texts.map((t) => (typeof t === 'string' ? t : safeStringify(t))).join('\n');
  appendFileSync(join(dir, `${source}-${process.pid}.txt`), `${record}\n\u0000\n`);
}

function safeStringify(value: unknown): string {
  const seen = new WeakSet();
  try {
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Error) return { ...v, name: v.name, message: v.message, stack: v.stack, cause: v.cause };
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    });
  } catch {
    return String(value);
  }
}
