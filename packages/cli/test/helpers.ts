/** An in-process Io that keeps what each stream got. */
import type { Io } from '../src/output.js';

export function capture(env: NodeJS.ProcessEnv = {}, untilStopped: Io['untilStopped'] = () => new Promise(() => {})) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: Io = {
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
    env,
    untilStopped,
  };
  return { io, stdout, stderr, text: () => stdout.join('') + stderr.join('') };
}
