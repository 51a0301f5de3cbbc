/** Sizes as people write them in a workflow file: `1048576`, `500MiB`, `2GiB`, `1GB`. */

const UNITS: Readonly<Record<string, number>> = {
  gib: 1024 ** 3,
  mib: 1024 ** 2,
  kib: 1024,
  gb: 1e9,
  mb: 1e6,
  kb: 1e3,
  b: 1,
  '': 1,
};

export const SIZE_RULE = 'a positive size in bytes, or with a unit (KiB, MiB, GiB, KB, MB, GB)';

/** Bytes, or undefined for anything but a positive whole size. */
export function parseSize(text: string): number | undefined {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : Number.NaN;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/** Bytes in the largest binary unit that divides them (`2GiB`), else plain bytes. */
export function formatSize(bytes: number): string {
  for (const unit of ['GiB', 'MiB', 'KiB']) {
    const size = UNITS[unit.toLowerCase()] as number;
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}
