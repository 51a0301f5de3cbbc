/** The lines `mediagw emulator` prints when it starts. */

import { FILES_PATH } from './files.js';
import type { Emulator } from './server.js';

export function formatEmulatorBanner(emulator: Pick<Emulator, 'url' | 'endpoints' | 'keyPinned'>): string {
  const rows = [
    ...emulator.endpoints.map((e) => [`${e.method} ${e.path}`, `${e.operation}, ${e.auth}`]),
    [`GET  ${FILES_PATH}/<name>`, 'produced videos and images'],
  ];
  const width = Math.max(...rows.map(([left]) => left!.length));
  return [
    `mediagw emulator listening on ${emulator.url}`,
    ...rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`),
    emulator.keyPinned ? 'Only the pinned API key is accepted.' : 'Any non-empty API key is accepted.',
    `Faults: header x-emulator-fault, e.g. "status=429; retry-after=1; times=1".`,
  ].join('\n');
}
