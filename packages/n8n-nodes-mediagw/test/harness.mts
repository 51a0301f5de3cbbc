/**
 * Runs workflows in n8n's own engine (n8n-core's WorkflowExecute with n8n-workflow objects), as
 * n8n's node test harness does, with the BUILT package loaded by n8n's PackageDirectoryLoader.
 * n8n-core ships no credentials helper; the one here resolves credentials from memory and applies
 * the credential type's `authenticate` as n8n's CLI does (function style, or generic properties
 * resolved through the workflow's expression engine).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Emulator, type EmulatorOptions, startEmulator } from '@mediagw/emulator';
import type {
  ICredentialDataDecryptedObject,
  ICredentialType,
  IDataObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IRun,
  IVersionedNodeType,
  IWorkflowBase,
  IWorkflowExecuteAdditionalData,
  Workflow as WorkflowType,
} from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { capture } from '../../../test/secrets/capture.ts';

// Instance settings write an encryption key under the user folder: keep it out of $HOME.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mediagw-n8n-user-'));
// n8n's logger would print every node error; the tests read errors from the run data instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

// CommonJS, as n8n loads them: the same module instances the bundled node `require`s (the ESM
// builds of these dual packages would be second copies with their own classes and DI container).
// MEDIAGW_N8N_MODULES (a folder holding node_modules/n8n-core) takes the engine from another n8n
// install: the bench runs our node and n8n's own nodes in the engine of a full n8n 2.41.1.
const require = createRequire(
  process.env.MEDIAGW_N8N_MODULES ? join(process.env.MEDIAGW_N8N_MODULES, 'package.json') : import.meta.url,
);
const core = require('n8n-core') as typeof import('n8n-core');
const workflowLib = require('n8n-workflow') as typeof import('n8n-workflow');
// n8n-core's own copy of the DI container (npm nests a newer @n8n/di under it).
const { Container } = createRequire(require.resolve('n8n-core'))('@n8n/di') as typeof import('@n8n/di');

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const PACKAGE = 'n8n-nodes-mediagw';
export const NODE_TYPE = `${PACKAGE}.mediaGateway`;
export const TRIGGER_TYPE = `${PACKAGE}.mediaGatewayTrigger`;
export const CREDENTIAL_TYPE = 'mediaGatewayApi';

/** Binary data the way a default n8n keeps it: on the filesystem, items carry only an id. */
const binaryConfig = Container.get(core.BinaryDataConfig);
binaryConfig.mode = 'filesystem';
binaryConfig.availableModes = ['filesystem'];
// MEDIAGW_N8N_BINARY_DIR shares one store between processes (the bench stages inputs in another).
binaryConfig.localStoragePath =
  process.env.MEDIAGW_N8N_BINARY_DIR ?? mkdtempSync(join(tmpdir(), 'mediagw-n8n-binary-'));
await Container.get(core.BinaryDataService).init();

/** Where new binary data goes: n8n's binary store (items carry an id) or the item itself (base64). */
export function setBinaryMode(mode: 'filesystem' | 'memory'): void {
  // The service keeps a manager per mode; a mode without one ('default') keeps data in the item.
  (Container.get(core.BinaryDataService) as unknown as { mode: string }).mode =
    mode === 'filesystem' ? 'filesystem-v2' : 'default';
}

/** The binary store's folder (filesystem mode). */
export const BINARY_STORAGE = binaryConfig.localStoragePath;

/** The file behind a stored binary (filesystem mode). */
export function storedBinaryPath(id: string): string {
  return Container.get(core.BinaryDataService).getPath(id);
}

/**
 * A source of test items: `parameters.items` is a list of `{json, binary: {property: fixture file}}`
 * (a name in fixtures/, or an absolute path).
 * Binary data goes through n8n's own `prepareBinaryData`, as a Read File node would.
 */
class FixtureItems implements INodeType {
  description = {
    displayName: 'Fixture Items',
    name: 'fixtureItems',
    group: ['input'],
    version: 1,
    description: 'Test items with binary data from fixture files',
    defaults: { name: 'Fixture Items' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
  } as INodeType['description'];

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const specs = this.getNodeParameter('items', 0) as { json?: IDataObject; binary?: Record<string, string> }[];
    const items: INodeExecutionData[] = [];
    for (const spec of specs) {
      const item: INodeExecutionData = { json: spec.json ?? {} };
      for (const [property, file] of Object.entries(spec.binary ?? {})) {
        item.binary ??= {};
        const path = isAbsolute(file) ? file : join(FIXTURES, file);
        item.binary[property] = await this.helpers.prepareBinaryData(readFileSync(path), basename(path));
      }
      items.push(item);
    }
    return [items];
  }
}

/** Returns `parameters.items` as they are (items of an earlier run, binary references included). */
class PinnedItems implements INodeType {
  description = {
    displayName: 'Pinned Items',
    name: 'pinnedItems',
    group: ['input'],
    version: 1,
    description: 'Items given as they are',
    defaults: { name: 'Pinned Items' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
  } as INodeType['description'];

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getNodeParameter('items', 0) as INodeExecutionData[];
    return [items.map(({ json, binary }) => (binary ? { json, binary } : { json }))];
  }
}

class ManualStart implements INodeType {
  description = {
    displayName: 'Start',
    name: 'start',
    group: ['trigger'],
    version: 1,
    description: 'Starts the run',
    defaults: { name: 'Start' },
    inputs: [],
    outputs: ['main'],
    properties: [],
  } as INodeType['description'];

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    return [[{ json: {} }]];
  }
}

export interface LoadedPackage {
  nodeTypes: INodeTypes;
  credentialTypes: Record<string, ICredentialType>;
}

/** Loads the built package as n8n does (dist/, via package.json's `n8n` field). */
export async function loadPackage(): Promise<LoadedPackage> {
  const loader = new core.PackageDirectoryLoader(PACKAGE_DIR);
  await loader.loadAll();
  const types: Record<string, INodeType | IVersionedNodeType> = {
    'harness.start': new ManualStart(),
    'harness.fixtureItems': new FixtureItems(),
    'harness.pinnedItems': new PinnedItems(),
  };
  for (const [name, data] of Object.entries(loader.nodeTypes)) types[`${PACKAGE}.${name}`] = data.type;
  const credentialTypes: Record<string, ICredentialType> = {};
  for (const [name, data] of Object.entries(loader.credentialTypes)) credentialTypes[name] = data.type;
  const nodeTypes: INodeTypes = {
    getByName: (type) => {
      const found = types[type];
      if (!found) throw new Error(`Unknown node type ${type}; loaded: ${Object.keys(types).join(', ')}`);
      return found;
    },
    getByNameAndVersion: (type, version) =>
      workflowLib.NodeHelpers.getVersionedNodeType(nodeTypes.getByName(type), version),
    getKnownTypes: () => ({}),
  };
  return { nodeTypes, credentialTypes };
}

/** Credentials by id, decrypted; the generic or function `authenticate` of the credential type. */
class MemoryCredentialsHelper extends workflowLib.ICredentialsHelper {
  private readonly types: Record<string, ICredentialType>;
  private readonly store: Map<string, ICredentialDataDecryptedObject>;

  // Plain fields, not parameter properties: Node's type stripping (the bench imports this file) needs erasable syntax.
  constructor(types: Record<string, ICredentialType>, store: Map<string, ICredentialDataDecryptedObject>) {
    super();
    this.types = types;
    this.store = store;
  }

  getParentTypes(name: string): string[] {
    return this.types[name]?.extends ?? [];
  }

  isCredentialUsableByNode(): boolean {
    return true;
  }

  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    requestOptions: IHttpRequestOptions,
    workflow?: WorkflowType,
    node?: INode,
  ): Promise<IHttpRequestOptions> {
    const auth = this.types[typeName]?.authenticate;
    if (auth === undefined) return requestOptions;
    if (typeof auth === 'function') return await auth(credentials, requestOptions);
    if (!workflow || !node) throw new Error('generic authenticate needs the workflow and node');
    // Generic: every key and value may be an expression over $credentials (header names too).
    const resolve = (value: unknown) =>
      typeof value === 'string' && value.startsWith('=')
        ? workflow.expression.getSimpleParameterValue(
            node,
            value,
            'internal',
            { $credentials: credentials },
            undefined,
            '',
          )
        : value;
    const out: IHttpRequestOptions = { ...requestOptions };
    for (const [target, entries] of Object.entries(auth.properties)) {
      const resolved: IDataObject = { ...((out as unknown as Record<string, IDataObject>)[target] ?? {}) };
      for (const [key, value] of Object.entries(entries as IDataObject)) {
        resolved[String(resolve(key))] = resolve(value) as IDataObject[string];
      }
      (out as unknown as Record<string, IDataObject>)[target] = resolved;
    }
    return out;
  }

  async preAuthentication(): Promise<undefined> {
    return undefined;
  }

  async runPreAuthentication(): Promise<undefined> {
    return undefined;
  }

  async getCredentials(): Promise<never> {
    throw new Error('not used by these tests');
  }

  async getDecrypted(
    _additionalData: IWorkflowExecuteAdditionalData,
    nodeCredentials: { id: string | null; name: string },
  ): Promise<ICredentialDataDecryptedObject> {
    const found = nodeCredentials.id === null ? undefined : this.store.get(nodeCredentials.id);
    if (!found) throw new Error(`No credentials with id ${nodeCredentials.id}`);
    return structuredClone(found);
  }

  async updateCredentials(): Promise<void> {}

  async updateCredentialsOauthTokenData(): Promise<void> {}

  getCredentialsProperties(type: string) {
    return this.types[type]?.properties ?? [];
  }
}

export interface WorkflowFixture {
  name: string;
  nodes: INode[];
  connections: IWorkflowBase['connections'];
}

export function readWorkflow(file: string): WorkflowFixture {
  return JSON.parse(readFileSync(join(FIXTURES, 'workflows', file), 'utf8')) as WorkflowFixture;
}

/** A copy of the workflow with one node's parameters merged (shallow per key). */
export function withParameters(workflow: WorkflowFixture, nodeName: string, patch: IDataObject): WorkflowFixture {
  const copy = structuredClone(workflow);
  const node = copy.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`no node ${nodeName}`);
  node.parameters = { ...node.parameters, ...patch } as INode['parameters'];
  return copy;
}

/** A copy of the workflow with one node's settings changed (continueOnFail, ...). */
export function withNodeSettings(workflow: WorkflowFixture, nodeName: string, patch: Partial<INode>): WorkflowFixture {
  const copy = structuredClone(workflow);
  const node = copy.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`no node ${nodeName}`);
  Object.assign(node, patch);
  return copy;
}

export class Engine {
  readonly credentials = new Map<string, ICredentialDataDecryptedObject>();
  private runs = 0;
  /** Where `$execution.resumeUrl` points (a WaitingServer sets it). */
  webhookWaitingBaseUrl = 'http://127.0.0.1/webhook-waiting';

  get lastExecutionId(): string {
    return `exec-${this.runs}`;
  }

  readonly loaded: LoadedPackage;

  constructor(loaded: LoadedPackage) {
    this.loaded = loaded;
  }

  additionalData(workflowData: IWorkflowBase, executionId: string): IWorkflowExecuteAdditionalData {
    return {
      hooks: new core.ExecutionLifecycleHooks('manual', executionId, workflowData),
      credentialsHelper: new MemoryCredentialsHelper(this.loaded.credentialTypes, this.credentials),
      executionId,
      currentNodeExecutionIndex: 0,
      variables: {},
      restApiUrl: 'http://127.0.0.1/rest',
      instanceBaseUrl: 'http://127.0.0.1',
      webhookBaseUrl: 'http://127.0.0.1/webhook',
      webhookWaitingBaseUrl: this.webhookWaitingBaseUrl,
      webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
      formBaseUrl: 'http://127.0.0.1/form',
      formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
      formTestBaseUrl: 'http://127.0.0.1/form-test',
      mcpBaseUrl: 'http://127.0.0.1/mcp',
      mcpTestBaseUrl: 'http://127.0.0.1/mcp-test',
    } as unknown as IWorkflowExecuteAdditionalData;
  }

  workflow(fixture: WorkflowFixture): { workflow: WorkflowType; data: IWorkflowBase } {
    const id = `wf-${++this.runs}`;
    const data = {
      id,
      name: fixture.name,
      nodes: fixture.nodes,
      connections: fixture.connections,
      active: false,
      settings: {},
      createdAt: new Date(),
      updatedAt: new Date(),
    } as unknown as IWorkflowBase;
    const workflow = new workflowLib.Workflow({
      id,
      name: fixture.name,
      nodes: fixture.nodes,
      connections: fixture.connections,
      active: false,
      nodeTypes: this.loaded.nodeTypes,
      staticData: {},
      settings: {},
    });
    return { workflow, data };
  }

  /** Runs the whole workflow from its start node and returns n8n's run data. */
  async run(fixture: WorkflowFixture): Promise<IRun> {
    const { workflow, data } = this.workflow(fixture);
    const executionId = `exec-${this.runs}`;
    const execute = new core.WorkflowExecute(this.additionalData(data, executionId), 'manual');
    const start = fixture.nodes.find((n) => n.type === 'harness.start');
    const run = await execute.run({ workflow, startNode: start });
    capture('n8n', run.data);
    return run;
  }
}

export interface NodeOutcome {
  items: INodeExecutionData[];
  error: (Error & { description?: string; httpCode?: string; context?: IDataObject }) | undefined;
}

/** The output items (first output) and the error of one node in a run. */
export function outcomeOf(run: IRun, nodeName: string): NodeOutcome {
  const task = run.data.resultData.runData[nodeName]?.[0];
  return {
    items: (task?.data?.main?.[0] ?? []) as INodeExecutionData[],
    error: task?.error as NodeOutcome['error'],
  };
}

/** Reads an output item's binary back through n8n (works for filesystem ids and inline data). */
export async function binaryBytes(item: INodeExecutionData, property: string): Promise<Buffer> {
  const binary = item.binary?.[property];
  if (!binary) throw new Error(`no binary property ${property}`);
  if (binary.id) {
    return await Container.get(core.BinaryDataService).getAsBuffer(binary);
  }
  return Buffer.from(binary.data, 'base64');
}

export { core, workflowLib };

export interface EmulatorSetup {
  emu: Emulator;
  engine: Engine;
}

/**
 * Starts an emulator and loads the package once for a test file; before each test the records
 * are cleared, the fault removed and credential `gw` points at the emulator with `apiKey`.
 */
export function useEmulator(apiKey: string, options: EmulatorOptions = {}): EmulatorSetup {
  const setup = {} as EmulatorSetup;
  beforeAll(async () => {
    setup.emu = await startEmulator({ port: 0, apiKey, ...options });
    setup.engine = new Engine(await loadPackage());
  });
  afterAll(async () => {
    await setup.emu?.close();
  });
  beforeEach(() => {
    setup.emu.setFault(undefined);
    setup.emu.reset();
    setup.engine.credentials.set('gw', { baseUrl: setup.emu.url, apiKey });
  });
  return setup;
}
