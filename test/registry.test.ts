/**
 * A fourth operation, defined outside the core (a toy `echo` in test/fixtures: one text field, one image), gets a
 * CLI command, an Action operation with its action.yml entries, and an n8n operation with its
 * parameters, all from the registry each adapter is given; and round-trips against an emulator
 * route registered the same way. The platform files that are static agree with the registry.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '@mediagw/cli';
import { createClient, OPERATIONS } from '@mediagw/core';
import { startEmulator } from '@mediagw/emulator';
import type { IExecuteFunctions, INodeProperties, INodeType, INodeTypes } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderActionYml } from '../packages/github-action/src/action-yml.js';
import { run as runAction } from '../packages/github-action/src/main.js';
import { parseOutputFile, png } from '../packages/github-action/test/helpers.js';
import { router } from '../packages/n8n-nodes-mediagw/nodes/MediaGateway/actions/router.js';
import { nodeProperties } from '../packages/n8n-nodes-mediagw/nodes/MediaGateway/description/operations.js';
import { Engine, loadPackage, NODE_TYPE, outcomeOf } from '../packages/n8n-nodes-mediagw/test/harness.mts';
import { echo, echoRoute } from './fixtures/echo.js';
import { capture } from './secrets/capture.js';

const KEY = 'sk-SENTINEL-registry-5e0a';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const operations = [...OPERATIONS, echo];
const IMAGE = png(4, [10, 200, 30]);
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY, operations: [echoRoute] });
  dir = await mkdtemp(join(tmpdir(), 'mediagw-registry-'));
  await writeFile(join(dir, 'pic.png'), IMAGE);
});
afterAll(() => emulator?.close());

describe('an operation defined outside the core', () => {
  it('the core client and the emulator serve it from its descriptor', async () => {
    expect(emulator.endpoints.at(-1)).toEqual({
      operation: 'echo',
      method: 'POST',
      path: '/service_prefix/tools/echo',
      auth: 'Authorization: Bearer <key>',
    });
    const client = createClient({ baseUrl: emulator.url, apiKey: KEY });
    const result = await client.run(echo, { shout_text: 'hello', picture: join(dir, 'pic.png') });
    await client.close();
    expect(result).toMatchObject({ operation: 'echo', echoed: 'hello', sha256: sha256(IMAGE), warnings: [] });
    // The emulator refuses what the core refuses: a request without the required field.
    const refused = await fetch(`${emulator.url}/service_prefix/tools/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(400);
  });

  it('is a CLI command, its flags and --json from the descriptor', async () => {
    const io = (env: NodeJS.ProcessEnv) => {
      const out: string[] = [];
      return {
        out,
        io: {
          stdout: { write: (t: string) => out.push(t) },
          stderr: { write: (t: string) => out.push(t) },
          env,
          untilStopped: () => new Promise<string>(() => {}),
        },
      };
    };
    const help = io({});
    expect(await main(['echo', '--help'], help.io, { operations })).toBe(0);
    expect(help.out.join('')).toMatch(/--shout-text TEXT +required: the text to send back; a non-empty text/);
    const call = io({ MEDIAGW_BASE_URL: emulator.url, MEDIAGW_API_KEY: KEY });
    const code = await main(['echo', '--shout-text', 'hi', '--image', join(dir, 'pic.png'), '--json'], call.io, {
      operations,
    });
    expect(code, call.out.join('')).toBe(0);
    expect(JSON.parse(call.out.join(''))).toMatchObject({
      operation: 'echo',
      echoedText: 'hi',
      imageSha256: sha256(IMAGE),
    });
  });

  it("is an Action operation with its action.yml entries; the committed action.yml is the registry's", async () => {
    const yml = renderActionYml(operations);
    expect(yml).toContain(
      '  shout-text:\n    description: "echo (required): the text to send back. Allowed: a non-empty text."',
    );
    expect(yml).toContain('  echoed-text:\n    description: "echo: the text as the gateway got it."');
    const committed = await readFile(new URL('../packages/github-action/action.yml', import.meta.url), 'utf8');
    expect(committed).toBe(renderActionYml(OPERATIONS));

    const ws = join(dir, 'ws');
    const temp = join(dir, 'runner-temp');
    await mkdir(ws, { recursive: true });
    await mkdir(temp, { recursive: true });
    await writeFile(join(ws, 'pic.png'), IMAGE);
    const env: Record<string, string> = {
      GITHUB_OUTPUT: join(temp, 'output'),
      GITHUB_STEP_SUMMARY: join(temp, 'summary'),
      GITHUB_WORKSPACE: ws,
      RUNNER_TEMP: temp,
      INPUT_OPERATION: 'echo',
      'INPUT_BASE-URL': emulator.url,
      'INPUT_API-KEY': KEY,
      'INPUT_SHOUT-TEXT': 'from the action',
      INPUT_IMAGE: 'pic.png',
    };
    await writeFile(env.GITHUB_OUTPUT!, '');
    await writeFile(env.GITHUB_STEP_SUMMARY!, '');
    const saved = { ...process.env };
    const write = process.stdout.write;
    let stdout = '';
    Object.assign(process.env, env);
    process.stdout.write = ((chunk: string) => {
      stdout += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      await runAction({ operations });
    } finally {
      process.stdout.write = write;
      process.env = saved;
    }
    capture('action', stdout);
    expect(process.exitCode ?? 0, stdout).toBe(0);
    const outputs = parseOutputFile(await readFile(env.GITHUB_OUTPUT!, 'utf8'));
    expect(outputs).toMatchObject({ 'echoed-text': 'from the action', 'image-sha256': sha256(IMAGE) });
  });

  it("is an n8n operation with its parameters; the built node's description is the registry's", async () => {
    const loaded = await loadPackage();
    const built = loaded.nodeTypes.getByName(NODE_TYPE) as INodeType;
    expect(built.description.properties).toEqual(nodeProperties(OPERATIONS));

    // The node over the extended list, as the built node is over the core's.
    const extended: INodeType = {
      description: { ...built.description, properties: nodeProperties(operations) },
      execute(this: IExecuteFunctions) {
        return router.call(this, operations);
      },
    };
    const parameters = extended.description.properties.filter((p) =>
      p.displayOptions?.show?.operation?.includes('echo'),
    );
    expect(parameters.map((p: INodeProperties) => p.displayName)).toEqual([
      'Input Binary Field',
      'Shout Text',
      'Options',
    ]);
    const nodeTypes: INodeTypes = {
      ...loaded.nodeTypes,
      getByName: (type) => (type === NODE_TYPE ? extended : loaded.nodeTypes.getByName(type)),
      getByNameAndVersion: (type, version) =>
        type === NODE_TYPE ? extended : loaded.nodeTypes.getByNameAndVersion(type, version),
    };
    const engine = new Engine({ ...loaded, nodeTypes });
    engine.credentials.set('gw', { baseUrl: emulator.url, apiKey: KEY });
    const credentials = { mediaGatewayApi: { id: 'gw', name: 'gateway' } };
    const node = (id: string, name: string, type: string, parameters: object, extra = {}) => ({
      id,
      name,
      type,
      typeVersion: 1,
      position: [0, 0] as [number, number],
      parameters,
      ...extra,
    });
    const run = await engine.run({
      name: 'echo',
      nodes: [
        node('1', 'Start', 'harness.start', {}),
        node('2', 'Images', 'harness.fixtureItems', { items: [{ json: {}, binary: { data: 'red.png' } }] }),
        node(
          '3',
          'Media Gateway',
          NODE_TYPE,
          { resource: 'image', operation: 'echo', binaryPropertyName: 'data', shout_text: 'from n8n' },
          { credentials },
        ),
      ],
      connections: {
        Start: { main: [[{ node: 'Images', type: 'main', index: 0 }]] },
        Images: { main: [[{ node: 'Media Gateway', type: 'main', index: 0 }]] },
      },
    } as never);
    const { items, error } = outcomeOf(run, 'Media Gateway');
    expect(error).toBeUndefined();
    const red = await readFile(new URL('../packages/n8n-nodes-mediagw/test/fixtures/red.png', import.meta.url));
    expect(items[0]?.json).toMatchObject({ operation: 'echo', echoed: 'from n8n', sha256: sha256(red) });
  });
});
