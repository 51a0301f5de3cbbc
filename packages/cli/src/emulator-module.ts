/**
 * `@mediagw/emulator` is an optional dependency: a plain install brings it (npm installs optional
 * dependencies unless told not to), and `--omit=optional` leaves its server stack out for
 * pipelines that only call a gateway. Loaded on demand; when it is missing, the two commands that
 * need it say how to get it.
 */
import type * as Emulator from '@mediagw/emulator';
import { UsageError } from './args.js';

export async function loadEmulator(command: string): Promise<typeof Emulator> {
  try {
    return await import('@mediagw/emulator');
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === 'ERR_MODULE_NOT_FOUND' && e.message?.includes('@mediagw/emulator')) {
      throw new UsageError(
        `mediagw ${command} needs @mediagw/emulator, an optional dependency that is not installed`,
        'Install it beside the CLI: npm install @mediagw/emulator (an install with --omit=optional leaves it out).',
      );
    }
    throw error;
  }
}
