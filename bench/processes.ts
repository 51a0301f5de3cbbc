/** Child processes for benchmarks: a separate emulator, and timed runs of commands. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const NODE = process.execPath;
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export async function startEmulatorProcess(options: object = {}) {
  const child = spawn(NODE, [here('./emulator-process.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    child.once('exit', (code) => reject(new Error(`emulator exited (${code})`)));
  });
  return {
    url,
    pid: child.pid,
    async close() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Runs a command to completion; returns wall time in ms and its stdout. Rejects on non-zero exit. */
export async function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const [code] = (await once(child, 'exit')) as [number];
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`);
  return { ms, stdout, stderr };
}
