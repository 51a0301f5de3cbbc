// Where did a secret show up? Scans log files (a whole folder) and captured texts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Returns the names of the sources that contain `secret`: every file in `dirs` (n8n logs, event
 * logs) and each entry of `texts` ({name: string}). An empty list means no leak.
 */
export async function secretSightings(secret, { dirs = [], texts = {} } = {}) {
  if (!secret || secret.length < 8) throw new Error('refusing to scan for an empty or short secret');
  const found = [];
  for (const dir of dirs) {
    for (const name of await readdir(dir).catch(() => [])) {
      const text = await readFile(join(dir, name), 'utf8').catch(() => '');
      if (text.includes(secret)) found.push(join(dir, name));
    }
  }
  for (const [name, text] of Object.entries(texts)) {
    if (String(text).includes(secret)) found.push(name);
  }
  return found;
}
