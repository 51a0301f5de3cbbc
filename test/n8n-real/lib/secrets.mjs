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

/**
 * The closing checks of every step: the key is in none of n8n's logs (`logDir`), none of the
 * captured `texts` (execution data, the emulator's records), and not in the step's own output.
 */
export async function checkKeyNowhere(step, key, { logDir, texts, what = 'n8n logs or execution data' }) {
  const sightings = await secretSightings(key, { dirs: [logDir], texts });
  step.check(`the API key never appears in ${what}`, sightings.length === 0, sightings.join(', '));
  step.check(
    "the API key never appears in this step's output",
    !(await secretSightings(key, { texts: { output: step.printed.join('\n') } })).length,
  );
}

/** What the emulator recorded (requests, notifications), as texts to scan for a key. */
export const emulatorTexts = (emulator) => ({
  'emulator records': JSON.stringify(emulator?.requests ?? []),
  'emulator notifications': JSON.stringify(emulator?.notifications ?? []),
});
