/**
 * What n8n's server does for a waiting execution, done here with n8n's own engine: a real HTTP
 * server at the resume URL (`webhookWaitingBaseUrl/<executionId>`) runs the waiting node's
 * webhook() in n8n-core's WebhookContext with the execution's data; when it returns items, the
 * execution resumes as n8n's WaitingWebhooks resumes it (the node disabled, its output the
 * webhook's items); `timeOut()` resumes it as n8n's WaitTracker does when the time limit passes.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeType, IRun, IRunExecutionData, IWebhookData } from 'n8n-workflow';
import { capture } from '../../../test/secrets/capture.ts';
import { core, type Engine, type WorkflowFixture } from './harness.mts';

interface Waiting {
  fixture: WorkflowFixture;
  data: IRunExecutionData;
  executionId: string;
}

export class WaitingServer {
  readonly #waiting = new Map<string, Waiting>();
  readonly #finished = new Map<string, IRun>();
  #server: Server | undefined;
  url = '';

  constructor(readonly engine: Engine) {}

  async start(): Promise<void> {
    this.#server = createServer(async (req, res) => {
      try {
        await this.#handle(req, res);
      } catch (error) {
        res.writeHead(500).end(String((error as Error).message));
      }
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/webhook-waiting`;
    this.engine.webhookWaitingBaseUrl = this.url;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }

  /** Runs a workflow; if it ends up waiting, keeps it for a resume. */
  async run(fixture: WorkflowFixture): Promise<IRun> {
    const run = await this.engine.run(fixture);
    if (run.waitTill) {
      const executionId = this.engine.lastExecutionId;
      this.#waiting.set(executionId, { fixture, data: structuredClone(run.data), executionId });
    }
    return run;
  }

  /** The finished run of a resumed execution. */
  finished(executionId: string): IRun | undefined {
    return this.#finished.get(executionId);
  }

  isWaiting(executionId: string): boolean {
    return this.#waiting.has(executionId);
  }

  /** Resumes as n8n does when the time limit passes. */
  async timeOut(executionId: string): Promise<IRun> {
    const waiting = this.#waiting.get(executionId);
    if (!waiting) throw new Error(`execution ${executionId} is not waiting`);
    return await this.#resume(waiting);
  }

  async #resume(waiting: Waiting): Promise<IRun> {
    this.#waiting.delete(waiting.executionId);
    const { workflow, data } = this.engine.workflow(waiting.fixture);
    const execute = new core.WorkflowExecute(
      this.engine.additionalData(data, waiting.executionId),
      'manual',
      waiting.data,
    );
    const run = await execute.processRunExecutionData(workflow);
    capture('n8n', run.data);
    this.#finished.set(waiting.executionId, run);
    return run;
  }

  async #handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const executionId = url.pathname.split('/').pop() ?? '';
    const waiting = this.#waiting.get(executionId);
    if (!waiting) {
      res.writeHead(409, { 'content-type': 'application/json' }).end('{"message":"not waiting"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    Object.assign(req, {
      body: /json/i.test(String(req.headers['content-type'])) ? JSON.parse(text) : text,
      query: Object.fromEntries(url.searchParams),
    });
    const nodeName = waiting.data.resultData.lastNodeExecuted as string;
    const { workflow, data } = this.engine.workflow(waiting.fixture);
    const node = workflow.getNode(nodeName)!;
    const additionalData = { ...this.engine.additionalData(data, executionId), httpRequest: req, httpResponse: res };
    const webhookData = {
      httpMethod: 'POST',
      node: nodeName,
      path: '',
      webhookDescription: { name: 'default', httpMethod: 'POST', path: '', restartWebhook: true },
      workflowId: data.id,
      workflowExecuteAdditionalData: additionalData,
    } as unknown as IWebhookData;
    const context = new core.WebhookContext(
      workflow,
      node,
      additionalData as never,
      'webhook',
      webhookData,
      [],
      waiting.data,
    );
    const type = this.engine.loaded.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
    const result = await type.webhook!.call(context);
    if (result.noWebhookResponse && !result.workflowData) return;
    res.writeHead(200).end();
    if (!result.workflowData) return;
    // As n8n's WaitingWebhooks and prepareExecutionData: the waiting run's output dropped, the node
    // disabled, its output the webhook's items.
    waiting.data.resultData.runData[nodeName]?.pop();
    const entry = waiting.data.executionData!.nodeExecutionStack[0]!;
    entry.node.disabled = true;
    entry.data = { main: result.workflowData };
    entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
    waiting.data.waitTill = undefined;
    await this.#resume(waiting);
  }
}
