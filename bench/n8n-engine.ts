/**
 * n8n's engine for the n8n benchmarks: the workflow engine of a full n8n 2.41.1 (installed in
 * test/n8n-real, outside the workspace), running the built Media Gateway node and n8n's own nodes
 * side by side: HTTP Request and Code from n8n-nodes-base, the Code node's JavaScript in n8n's
 * real task runner (internal mode: a child process, as a default n8n 2.x runs it).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  ICredentialType,
  IExecuteFunctions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IVersionedNodeType,
  IWorkflowBase,
  IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

export const N8N_REAL = fileURLToPath(new URL('../test/n8n-real/', import.meta.url));
const N8N_NODES_BASE = join(N8N_REAL, 'node_modules/n8n-nodes-base');

/** Installs the full n8n of test/n8n-real (its own lockfile, about 3 minutes) unless it is there. */
export function ensureFullN8n(): void {
  if (existsSync(join(N8N_NODES_BASE, 'package.json'))) return;
  process.stderr.write('bench: installing n8n 2.41.1 into test/n8n-real (about 3 minutes, once)\n');
  // As test/n8n-real/run.sh does: several native builds try to download binaries, which fails here.
  const result = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: N8N_REAL,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('installing n8n into test/n8n-real failed');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Streams absolute paths from `parameters.files` into n8n's binary store, as Read/Write Files does. */
class FileItems implements INodeType {
  description = {
    displayName: 'File Items',
    name: 'fileItems',
    group: ['input'],
    version: 1,
    description: 'One item with every file as a binary property (data, data1, ...)',
    defaults: { name: 'File Items' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [{ displayName: 'Files', name: 'files', type: 'json', default: '[]' }],
  } as INodeType['description'];

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const files = this.getNodeParameter('files', 0) as string[];
    const item: INodeExecutionData = { json: {}, binary: {} };
    for (const [i, file] of files.entries()) {
      item.binary![i === 0 ? 'data' : `data${i}`] = await this.helpers.prepareBinaryData(
        createReadStream(file),
        basename(file),
        'image/png',
      );
    }
    return [[item]];
  }
}

/** A node of a benchmark workflow (a chain after a start node). */
export interface ChainNode {
  name: string;
  type: string;
  typeVersion?: number;
  parameters: Record<string, unknown>;
  credentials?: INode['credentials'];
}

export interface BenchEngine {
  /** Runs the chain after a start node; the named node's items and error. */
  run(chain: ChainNode[], outputOf: string): Promise<Outcome>;
  /** Stores the files in n8n's binary store (one item, properties data, data1, ...): not measured. */
  stage(files: string[]): Promise<INodeExecutionData[]>;
  setCredential(id: string, data: Record<string, unknown>): void;
  /** The task runner's process id (when started). */
  runnerPid: number | undefined;
  stop(): Promise<void>;
}

export interface Outcome {
  items: INodeExecutionData[];
  error: (Error & { description?: string }) | undefined;
}

/** Starts the engine; `runner: true` also starts n8n's task runner (for the Code node). */
export async function startBenchEngine(options: { runner: boolean }): Promise<BenchEngine> {
  ensureFullN8n();
  process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mediagw-bench-n8n-'));
  process.env.N8N_LOG_LEVEL ??= 'silent';
  process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
  process.env.N8N_RUNNERS_BROKER_PORT ??= String(await freePort());
  process.env.MEDIAGW_N8N_MODULES = N8N_REAL;
  const harness = (await import(
    '../packages/n8n-nodes-mediagw/test/harness.mts'
  )) as typeof import('../packages/n8n-nodes-mediagw/test/harness.mts');
  const { Engine, loadPackage, outcomeOf, workflowLib } = harness;
  const n8n = createRequire(join(N8N_REAL, 'package.json'));
  const nodesBase = (path: string) => n8n(`n8n-nodes-base/dist/${path}`) as Record<string, new () => unknown>;
  const { Container } = n8n('@n8n/di') as typeof import('@n8n/di');

  const ours = await loadPackage();
  const extra: Record<string, INodeType | IVersionedNodeType> = {
    'bench.fileItems': new FileItems(),
    'n8n-nodes-base.httpRequest': new (nodesBase('nodes/HttpRequest/HttpRequest.node.js')
      .HttpRequest!)() as IVersionedNodeType,
    'n8n-nodes-base.code': new (nodesBase('nodes/Code/Code.node.js').Code!)() as INodeType,
  };
  const nodeTypes: INodeTypes = {
    getByName: (type) => extra[type] ?? ours.nodeTypes.getByName(type),
    getByNameAndVersion: (type, version) =>
      workflowLib.NodeHelpers.getVersionedNodeType(nodeTypes.getByName(type), version),
    getKnownTypes: () => ({}),
  };
  const credentialTypes: Record<string, ICredentialType> = {
    ...ours.credentialTypes,
    httpHeaderAuth: new (nodesBase('credentials/HttpHeaderAuth.credentials.js').HttpHeaderAuth!)() as ICredentialType,
  };

  let runnerModule: { start(): Promise<void>; stop(): Promise<void>; jsRunnerProcess?: { pid?: number } } | undefined;
  let startRunnerTask: ((...args: unknown[]) => Promise<unknown>) | undefined;
  let getRunnerStatus: ((type: string) => unknown) | undefined;
  if (options.runner) {
    const { TaskRunnerModule } = n8n('n8n/dist/task-runners/task-runner-module.js');
    const { TaskRequester } = n8n('n8n/dist/task-runners/task-managers/task-requester.js');
    runnerModule = Container.get(TaskRunnerModule as never) as typeof runnerModule;
    await runnerModule!.start();
    const requester = () => Container.get(TaskRequester as never) as Record<string, (...a: unknown[]) => unknown>;
    // What n8n's own additional data does (workflow-execute-additional-data.ts).
    startRunnerTask = async (...args) => await requester().startTask!(...args);
    getRunnerStatus = (type) => requester().getRunnerStatus!(type);
  }

  class BenchEngineImpl extends Engine {
    override additionalData(data: IWorkflowBase, executionId: string): IWorkflowExecuteAdditionalData {
      const base = super.additionalData(data, executionId) as unknown as Record<string, unknown>;
      if (startRunnerTask) Object.assign(base, { startRunnerTask, getRunnerStatus });
      return base as unknown as IWorkflowExecuteAdditionalData;
    }
  }
  const engine = new BenchEngineImpl({ nodeTypes, credentialTypes });

  const run: BenchEngine['run'] = async (chain, outputOf) => {
    const nodes = [
      { name: 'Start', type: 'harness.start', typeVersion: 1, parameters: {} },
      ...chain.map((n) => ({ typeVersion: 1, ...n })),
    ].map((n, i) => ({ id: String(i + 1), position: [i * 200, 0] as [number, number], ...n })) as INode[];
    const connections: Record<string, { main: { node: string; type: 'main'; index: number }[][] }> = {};
    for (let i = 0; i + 1 < nodes.length; i++) {
      connections[nodes[i]!.name] = { main: [[{ node: nodes[i + 1]!.name, type: 'main', index: 0 }]] };
    }
    const result = await engine.run({ name: 'bench', nodes, connections });
    const outcome = outcomeOf(result, outputOf) as Outcome;
    // A node before the last one may have failed (the last one then never ran).
    const failed = nodes.map((n) => outcomeOf(result, n.name).error).find(Boolean) ?? result.data.resultData.error;
    return { ...outcome, error: outcome.error ?? (failed as Outcome['error']) };
  };

  return {
    run,
    async stage(files) {
      const { items, error } = await run([{ name: 'Files', type: 'bench.fileItems', parameters: { files } }], 'Files');
      if (error) throw error;
      return items;
    },
    setCredential(id, data) {
      engine.credentials.set(id, data as never);
    },
    get runnerPid() {
      return runnerModule?.jsRunnerProcess?.pid;
    },
    async stop() {
      await runnerModule?.stop();
    },
  };
}

/** Peak RSS of a process since the last reset, via the kernel's high-water mark (Linux). */
export const rss = {
  /** Resets the high-water mark (VmHWM) to the current RSS. */
  reset(pid: number = process.pid): void {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  },
  read(pid: number = process.pid): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  },
};
