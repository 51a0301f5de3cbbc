// The credential's `test` request run the way n8n's CredentialsTester runs it (n8n-core's
// RoutingNode with the test request as a routing request, then n8n's verdict rules), against the
// emulator with one pinned key.
import type { ICredentialDataDecryptedObject, INode, INodeType, IRunExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, core, useEmulator, workflowLib } from './harness.mts';

const KEY = 'sk-SENTINEL-n8n-credential-2b9d';
const FORBIDDEN_KEY = 'sk-SENTINEL-n8n-credential-forbidden';

const setup = useEmulator(KEY, { forbiddenKeys: [FORBIDDEN_KEY] });

/** n8n's verdict: OK, or Error with the message of the rule that matched. */
async function testCredential(data: ICredentialDataDecryptedObject): Promise<{ status: string; message: string }> {
  const credentialType = setup.engine.loaded.credentialTypes[CREDENTIAL_TYPE]!;
  const testRequest = credentialType.test!;
  const nodeType = {
    description: {
      displayName: 'Temp',
      name: 'temp',
      group: ['transform'],
      version: 1,
      description: '',
      defaults: {},
      inputs: ['main'],
      outputs: ['main'],
      credentials: [{ name: CREDENTIAL_TYPE, required: true }],
      properties: [
        { displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
      ],
    },
  } as unknown as INodeType;
  const node: INode = {
    id: 'temp',
    name: 'Temp-Node',
    type: 'temp',
    typeVersion: 1,
    position: [0, 0],
    parameters: {},
    credentials: { [CREDENTIAL_TYPE]: { id: 'tested', name: 'Tested' } },
  };
  setup.engine.credentials.set('tested', data);
  const workflow = new workflowLib.Workflow({
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) },
  });
  const workflowData = { id: 'credential-test', name: 'credential test', nodes: [node], connections: {} } as never;
  const context = new core.ExecuteContext(
    workflow,
    node,
    setup.engine.additionalData(workflowData, 'exec-credential-test'),
    'internal',
    workflowLib.createEmptyRunExecutionData() as IRunExecutionData,
    0,
    [],
    { main: [[{ json: {} }]] },
    { node, data: {}, source: null },
    [],
  );
  try {
    await new core.RoutingNode(context, nodeType, {
      id: 'tested',
      name: 'Tested',
      type: CREDENTIAL_TYPE,
      data,
    }).runNode();
  } catch (error) {
    const status = (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;
    const rule = testRequest.rules?.find((r) => r.type === 'responseCode' && r.properties.value === status);
    if (rule?.type === 'responseCode') return { status: 'Error', message: rule.properties.message };
    return { status: 'Error', message: String((error as Error).message) };
  }
  return { status: 'OK', message: 'Connection successful!' };
}

describe('credential test', () => {
  it('passes for the right key: the gateway refuses the deliberately invalid body, after auth', async () => {
    const verdict = await testCredential({ baseUrl: setup.emu.url, apiKey: KEY });
    expect(verdict).toEqual({ status: 'OK', message: 'Connection successful!' });
    const [request] = setup.emu.requests;
    expect(request).toMatchObject({
      operation: 'text-to-video',
      method: 'POST',
      path: '/service_prefix/submit/text_video_model',
      status: 400,
      fields: { prompt: '', num_inference_steps: 0 },
    });
    expect(request?.taskId).toBeUndefined();
    expect(request?.headers.authorization).toBe('[redacted]');
  });

  it('fails for a wrong key with the 401 message', async () => {
    const verdict = await testCredential({ baseUrl: setup.emu.url, apiKey: 'sk-SENTINEL-not-the-key' });
    expect(verdict).toEqual({ status: 'Error', message: 'The gateway refused the API key (HTTP 401)' });
    // n8n's request helper sends a 401 once more after re-authenticating; no task either way.
    expect(new Set(setup.emu.requests.map((r) => r.status))).toEqual(new Set([401]));
  });

  it('fails for a forbidden key with the 403 message', async () => {
    const verdict = await testCredential({ baseUrl: setup.emu.url, apiKey: FORBIDDEN_KEY });
    expect(verdict.message).toMatch(/HTTP 403/);
  });

  it('fails for a wrong service prefix with the 404 message', async () => {
    const verdict = await testCredential({
      baseUrl: setup.emu.url,
      apiKey: KEY,
      customizeRoutes: true,
      servicePrefix: 'x',
    });
    expect(verdict.message).toMatch(/HTTP 404.*route settings/);
    expect(setup.emu.requests[0]?.path).toBe('/x/submit/text_video_model');
  });
});
