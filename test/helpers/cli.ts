/**
 * Runs the built `mediagw` as a user's shell would: a subprocess on this Node (24), a clean
 * environment, stdout and stderr captured. Every capture is kept so a suite can scan them all for
 * the key at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { capture } from '../secrets/capture.js';

export const CLI = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
export const SENTINEL = 'sk-SENTINEL-cli-e2e-5d2c9b';

const captured: string[] = [];
/** Everything any run printed so far (this test file). */
export const allOutput = () => captured.join('\n');

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** Flags for node itself, before the CLI (`--import` of module hooks). */
  nodeArgs?: readonly string[];
}

export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string | RunOptions,
): Promise<Run> {
  return spawnCli(args, env, typeof cwd === 'string' ? { cwd } : cwd).done;
}

/** The CLI as a child process (to signal it while it runs), and its outcome. */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}, options: RunOptions = {}) {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, done: collect(child) };
}

/** The repository's root, where `npm run -s mediagw --` is defined. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run -s mediagw -- <args>` from `cwd` (a folder inside the repository), as a user in a shell. */
export function runNpm(args: readonly string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return collect(
    spawn('npm', ['run', '-s', 'mediagw', '--', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

function collect(child: ChildProcess): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      captured.push(stdout, stderr);
      capture('cli', stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running command (the emulator): its first stdout line, then a way to stop it. */
export function startCli(args: readonly string[], env: Record<string, string> = {}) {
  return started(
    spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/**
 * `npm run -s mediagw -- <args>` from the repository, long-running, in a process group of its own
 * (`kill()` signals npm alone, as `kill $!` does; `cleanup()` ends the whole group it started).
 */
export async function startNpm(args: readonly string[]) {
  const child = spawn('npm', ['run', '-s', 'mediagw', '--', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = await started(child);
  return {
    ...run,
    kill: (signal: NodeJS.Signals) => child.kill(signal),
    cleanup: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    },
  };
}

async function started(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing: ${stderr}`)));
  });
  const exited = new Promise<Run>((resolve) => {
    child.on('close', (code) => {
      captured.push(stdout, stderr);
      capture('cli', stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
  return {
    firstLine,
    exited,
    stop: (signal: NodeJS.Signals) => {
      child.kill(signal);
      return exited;
    },
  };
}

/** Characters a terminal acts on (C0 but LF, DEL, C1, line separators, bidi overrides), as code points. */
export function terminalControls(text: string): number[] {
  return [...text]
    .map((c) => c.codePointAt(0)!)
    .filter(
      (n) =>
        (n < 0x20 && n !== 0x0a) ||
        (n >= 0x7f && n <= 0x9f) ||
        n === 0x2028 ||
        n === 0x2029 ||
        (n >= 0x202a && n <= 0x202e) ||
        (n >= 0x2066 && n <= 0x2069),
    );
}

/** A real PNG, drawn with pngjs. */
export function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(image);
}

/** A temp folder holding two real PNGs and one file that is not an image. */
export async function sampleFiles() {
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-cli-'));
  const files = { dir, red: join(dir, 'red.png'), blue: join(dir, 'blue.png'), text: join(dir, 'notes.txt') };
  await writeFile(files.red, png(24, 16, [220, 40, 40]));
  await writeFile(files.blue, png(24, 16, [40, 60, 220]));
  await writeFile(files.text, 'not an image\n');
  return files;
}

/** A loopback server recording JSON POSTs: a notifyHook receiver. */
export async function hookServer() {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
