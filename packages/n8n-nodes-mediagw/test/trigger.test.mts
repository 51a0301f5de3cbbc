// The trigger's webhook() in n8n's own WebhookContext, behind a real HTTP server that hands it
// the request the way n8n's webhook server does (JSON bodies parsed, query parsed). A call that
// the trigger accepts is recorded as the workflow run it would start.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@mediagw/core';
import { type Emulator, startEmulator } from '@mediagw/emulator';
import type { IDataObject, INodeExecutionData, INodeType, IWebhookData } from 'n8n-workflow';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  core,
  Engine,
  loadPackage,
  outcomeOf,
  readWorkflow,
  TRIGGER_TYPE,
  type WorkflowFixture,
  withParameters,
} from './harness.mts';

const KEY = 'sk-SENTINEL-n8n-trigger-63aa';
const TRIGGER = 'Media Gateway Trigger';
const TOKEN = 'tok-123';

let engine: Engine;
let server: Server;
let hookUrl = '';
let fixture: WorkflowFixture = readWorkflow('trigger.json');
/** Items of the runs the trigger started. */
const started: INodeExecutionData[][] = [];

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return /json/i.test(String(req.headers['content-type'])) ? JSON.parse(text) : text;
}

beforeAll(async () => {
  engine = new Engine(await loadPackage());
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    Object.assign(req, { body: await readBody(req), query: Object.fromEntries(url.searchParams) });
    const { workflow, data } = engine.workflow(fixture);
    const node = workflow.getNode(TRIGGER)!;
    const additionalData = { ...engine.additionalData(data, 'exec-webhook'), httpRequest: req, httpResponse: res };
    const webhookData = {
      httpMethod: 'POST',
      node: TRIGGER,
      path: 'mediagw',
      webhookDescription: { name: 'default', httpMethod: 'POST', path: 'mediagw' },
      workflowId: data.id,
      workflowExecuteAdditionalData: additionalData,
    } as unknown as IWebhookData;
    const context = new core.WebhookContext(workflow, node, additionalData as never, 'webhook', webhookData, [], null);
    const type = engine.loaded.nodeTypes.getByName(TRIGGER_TYPE) as INodeType;
    const result = await type.webhook!.call(context);
    if (result.workflowData) started.push(result.workflowData[0]!);
    if (!result.noWebhookResponse) {
      // As n8n 2.41 answers an "onReceived" webhook (webhook-on-received-response-extractor): the
      // description's responseData, whose default "firstEntryJson" is sent as the text itself; "noData":
      // no body; empty: what webhook() returned as webhookResponse, else n8n's "Workflow was started".
      const description = type.description.webhooks?.[0];
      const responseData = description && 'responseData' in description ? description.responseData : 'firstEntryJson';
      const answer =
        responseData === 'noData'
          ? ''
          : responseData
            ? responseData
            : (result.webhookResponse ?? { message: 'Workflow was started' });
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
      res.writeHead(200, { 'content-type': typeof answer === 'string' ? 'text/html' : 'application/json' });
      res.end(text);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/mediagw`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});
beforeEach(() => {
  started.length = 0;
  fixture = readWorkflow('trigger.json');
});

const post = (query: string, body: string, contentType = 'application/json') =>
  fetch(`${hookUrl}${query}`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('Media Gateway Trigger', () => {
  it('accepts a JSON call carrying the token, answers it in JSON and emits its body', async () => {
    const response = await post(`?token=${TOKEN}`, JSON.stringify({ id: '42', status: 'SUCCESS' }));
    expect(response.status).toBe(200);
    // Not n8n's placeholder text "firstEntryJson" (what an accepted call got before responseData: '').
    expect(await response.json()).toEqual({ code: 200, message: 'Received; a run started' });
    expect(started).toEqual([[{ json: { id: '42', status: 'SUCCESS' } }]]);
  });

  it.each([
    ['a wrong token', '?token=tok-124'],
    ['no token', ''],
  ])('refuses %s with 401 and starts nothing', async (_, query) => {
    const response = await post(query, JSON.stringify({ id: '42' }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 401, message: 'Wrong or missing token' });
    expect(started).toEqual([]);
  });

  it('refuses a body that is not JSON with 400 and starts nothing', async () => {
    const response = await post(`?token=${TOKEN}`, 'id=42', 'text/plain');
    expect(response.status).toBe(400);
    expect(started).toEqual([]);
  });

  it('accepts calls without a token when none is set', async () => {
    fixture = withParameters(fixture, TRIGGER, { token: '' });
    const response = await post('', JSON.stringify([{ id: '1' }]));
    expect(response.status).toBe(200);
    expect(started).toEqual([[{ json: { body: [{ id: '1' }] } }]]);
  });

  it('starts one run per task and status: a repeated delivery is acknowledged and starts none', async () => {
    const notify = (id: string, status: string) => post(`?token=${TOKEN}`, JSON.stringify({ id, status }));
    expect((await notify('repeat-1', 'IN_PROGRESS')).status).toBe(200);
    expect((await notify('repeat-1', 'SUCCESS')).status).toBe(200);
    const again = await notify('repeat-1', 'SUCCESS');
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ code: 200, message: 'Already received; no new run started' });
    expect((await notify('repeat-2', 'SUCCESS')).status).toBe(200);
    expect(started.map((items) => [items[0]?.json.id, items[0]?.json.status])).toEqual([
      ['repeat-1', 'IN_PROGRESS'],
      ['repeat-1', 'SUCCESS'],
      ['repeat-2', 'SUCCESS'],
    ]);
  });

  it('with repeats allowed (window 0), every delivery starts a run', async () => {
    fixture = withParameters(fixture, TRIGGER, { options: { repeatWindowMinutes: 0 } });
    for (let i = 0; i < 2; i++) await post(`?token=${TOKEN}`, JSON.stringify({ id: 'allowed-1', status: 'SUCCESS' }));
    expect(started).toHaveLength(2);
  });

  it('refuses a body over the size limit with 413 and starts nothing', async () => {
    fixture = withParameters(fixture, TRIGGER, { options: { maxBodyKb: 1 } });
    const response = await post(`?token=${TOKEN}`, JSON.stringify({ id: 'big', pad: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    expect(started).toEqual([]);
  });

  it('warns in the editor when no token is set', async () => {
    const type = engine.loaded.nodeTypes.getByName(TRIGGER_TYPE) as INodeType;
    const warning = type.description.properties.find((p) => p.name === 'noTokenWarning');
    expect(warning?.type).toBe('notice');
    expect(warning?.displayOptions?.show).toEqual({ token: [''] });
  });

  describe('with the emulator', () => {
    let emu: Emulator;
    beforeAll(async () => {
      emu = await startEmulator({ port: 0, apiKey: KEY, notifyRetries: 0 });
    });
    afterAll(async () => {
      await emu?.close();
    });

    it('receives the notification of a Blend whose Notify Hook is the trigger URL', async () => {
      engine.credentials.set('gw', { baseUrl: emu.url, apiKey: KEY });
      const blend = withParameters(readWorkflow('blend.json'), 'Media Gateway', {
        options: { notifyHook: `${hookUrl}?token=${TOKEN}`, state: 'order-17' },
      });
      const { items, error } = outcomeOf(await engine.run(blend), 'Media Gateway');
      expect(error).toBeUndefined();
      await emu.settled();
      expect(emu.notifications.map((n) => n.status)).toEqual([200]);
      expect(started).toHaveLength(1);
      const body = started[0]?.[0]?.json as IDataObject;
      expect(body).toMatchObject({ id: items[0]?.json.taskId, action: 'BLEND', status: 'SUCCESS', state: 'order-17' });
      expect(body.imageUrl).toMatch(new RegExp(`^${emu.url}/files/`));
    });

    it('load: 1,000 blend notifications reach the trigger, none lost, none doubled', async () => {
      // A real 8x8 PNG: the emulator decodes and blends it for every task.
      const image = new PNG({ width: 8, height: 8 });
      image.data.fill(200);
      const png = PNG.sync.write(image);
      const client = createClient({ baseUrl: emu.url, apiKey: KEY });
      const notifyHook = `${hookUrl}?token=${TOKEN}`;
      const taskIds: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          for (let i = next++; i < 1000; i = next++) {
            const task = await client.blend({ base64Array: [png, png], notifyHook, state: `load-${i}` });
            taskIds.push(task.taskId!);
          }
        }),
      );
      await client.close();
      await emu.settled();
      const states = started.map((items) => (items[0]?.json as IDataObject).state);
      expect(started).toHaveLength(1000);
      expect(new Set(states).size).toBe(1000);
      expect(new Set(started.map((items) => (items[0]?.json as IDataObject).id))).toEqual(new Set(taskIds));
      expect(emu.count('blend')).toBe(1001); // this test's 1,000 and the one before
    }, 60_000);
  });
});
