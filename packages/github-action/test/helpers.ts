/** Runs the bundled action the way a runner does, and reads metadata with GitHub's own parser. */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { type ActionTemplate, convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { expect } from 'vitest';
import { capture } from '../../../test/secrets/capture.js';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_DIR = join(PACKAGE_DIR, '..', '..');
export const BUNDLE = join(PACKAGE_DIR, 'dist', 'index.js');

/** A key that must never show up anywhere but the runner's mask command. */
export const SENTINEL_KEY = 'sk-SENTINEL-4f1c9a7e2b';

/** Validation errors GitHub's parser reports for a workflow file (empty when valid). */
export function workflowErrors(name: string, content: string): string[] {
  const result = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  return result.context.errors.getErrors().map((e) => e.message);
}

export async function readAction(): Promise<{ errors: string[]; action: ActionTemplate }> {
  const content = await readFile(join(PACKAGE_DIR, 'action.yml'), 'utf8');
  const result = parseAction({ name: 'action.yml', content }, new NoOperationTraceWriter());
  const errors = result.context.errors.getErrors().map((e) => e.message);
  if (!result.value) throw new Error(`action.yml did not parse: ${errors.join('; ')}`);
  return { errors, action: convertActionTemplate(result.context, result.value) };
}

/** The defaults a runner injects, by input name. */
export async function actionDefaults(): Promise<Record<string, string>> {
  const { action } = await readAction();
  const defaults: Record<string, string> = {};
  for (const input of action.inputs ?? []) {
    if (input.default) defaults[input.id] = input.default.toDisplayString();
  }
  return defaults;
}

/** `name<<delimiter\nvalue\ndelimiter` blocks, as @actions/core writes GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i] as string);
    if (!match) continue;
    const [, name, delimiter] = match as unknown as [string, string, string];
    const end = lines.indexOf(delimiter, i + 1);
    if (end < 0) throw new Error(`output ${name} has no closing delimiter`);
    outputs[name] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  runnerTemp: string;
}

export async function makeWorkspace(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'mediagw-ws-'));
}

/**
 * Spawns `dist/index.js` on this Node (24) with an environment built from nothing: `INPUT_*`
 * names uppercased with dashes kept, action.yml defaults for inputs not given, the output and
 * summary files created first, the workspace as working directory.
 */
export async function runAction(inputs: Record<string, string>, workspace?: string): Promise<ActionRun> {
  const ws = workspace ?? (await makeWorkspace());
  const runnerTemp = join(ws, '..', `${ws.split('/').pop()}-temp`);
  await mkdir(runnerTemp, { recursive: true });
  const outputFile = join(runnerTemp, 'github_output');
  const summaryFile = join(runnerTemp, 'step_summary');
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: ws,
    RUNNER_TEMP: runnerTemp,
  };
  for (const [name, value] of Object.entries({ ...(await actionDefaults()), ...inputs })) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  const child = spawn(process.execPath, [BUNDLE], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const run = {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(await readFile(outputFile, 'utf8')),
    summary: await readFile(summaryFile, 'utf8'),
    workspace: ws,
    runnerTemp,
  };
  capture('action', stdout, stderr, run.outputs, run.summary);
  return run;
}

/** Every place the key could leak, the runner's `::add-mask::` line taken out. */
export function everythingPrinted(run: ActionRun): string {
  const stdout = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [stdout, run.stderr, JSON.stringify(run.outputs), run.summary].join('\n');
}

export interface Annotation {
  level: string;
  title: string | undefined;
  message: string;
}

const unescapeCommand = (text: string) =>
  text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

export interface RunnerCommand {
  name: string;
  message: string;
}

/**
 * Every stdout line the runner would read as a workflow command: `::name props::message` (and the
 * legacy `##[name]message`), after leading blanks, with CR, LF and CRLF each ending a line.
 */
export function runnerCommands(run: ActionRun): RunnerCommand[] {
  const found: RunnerCommand[] = [];
  for (const raw of run.stdout.split(/\r\n|\r|\n/)) {
    const line = raw.trimStart();
    const modern = /^::([^\s:]+)(?: [^:]*)?::(.*)$/.exec(line);
    const legacy = /^##\[([^\]\s;]+)[^\]]*\](.*)$/.exec(line);
    const match = modern ?? legacy;
    if (match) found.push({ name: match[1] as string, message: unescapeCommand(match[2] as string) });
  }
  return found;
}

/** `::error title=...::message` workflow commands, decoded. */
export function annotations(run: ActionRun): Annotation[] {
  const found: Annotation[] = [];
  for (const [, level, props, message] of run.stdout.matchAll(/^::(error|warning|notice)(?: ([^:]*))?::(.*)$/gm)) {
    const title = /(?:^|,)title=([^,]*)/.exec(props ?? '')?.[1];
    found.push({
      level: level as string,
      title: title && unescapeCommand(title),
      message: unescapeCommand(message as string),
    });
  }
  return found;
}

/** What every run must show: the key masked first, then never again; no stack trace. */
export function expectClean(run: ActionRun, key = SENTINEL_KEY) {
  expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${key}`);
  expect(everythingPrinted(run)).not.toContain(key);
  expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

/**
 * A bad-input run: exit 1, one annotation per named input (each message starting with its name),
 * no outputs, a failure summary that says nothing was sent. Returns the messages by input.
 */
export function expectRefused(run: ActionRun, inputs: string[], key = SENTINEL_KEY): Record<string, string> {
  expectClean(run, key);
  expect(run.code, run.stdout).toBe(1);
  const titled = annotations(run).filter((a) => a.title?.startsWith('Invalid input: '));
  const named = titled.map((a) => a.title?.slice('Invalid input: '.length) as string);
  expect(named.sort()).toEqual([...inputs].sort());
  for (const a of titled) expect(a.message.startsWith(`${a.title?.slice('Invalid input: '.length)}: `)).toBe(true);
  expect(run.outputs).toEqual({});
  expect(run.summary).toContain('failed');
  expect(run.summary).toContain('nothing was sent to the gateway');
  return Object.fromEntries(titled.map((a) => [a.title?.slice('Invalid input: '.length), a.message]));
}

/** A workspace holding the given files (paths relative to it). */
export async function workspaceWith(files: Record<string, Uint8Array | string>): Promise<string> {
  const ws = await makeWorkspace();
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(ws, path)), { recursive: true });
    await writeFile(join(ws, path), content);
  }
  return ws;
}

/** The failure annotation (the step's setFailed message). */
export function failure(run: ActionRun): string {
  return annotations(run).find((a) => a.level === 'error' && a.title === undefined)?.message ?? '';
}

/** A real PNG of `size` x `size` pixels of one colour (zlib and CRC from node:zlib). */
export function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
