// Blend with Wait for Result in n8n's engine, against the emulator: the execution waits, the
// emulator notifies the resume URL (progress first), only the final notification of the awaited
// task resumes it, and the output carries the blended image. Failure and time-out become error items.
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryBytes, outcomeOf, readWorkflow, useEmulator, withNodeSettings, withParameters } from './harness.mts';
import { WaitingServer } from './waiting.mts';

const KEY = 'sk-SENTINEL-n8n-wait-9b1f';
const NODE = 'Media Gateway';
const setup = useEmulator(KEY, { notifyRetries: 0, notifyProgress: 2 });
let waiting: WaitingServer;

beforeAll(async () => {
  waiting = new WaitingServer(setup.engine);
  await waiting.start();
});
afterAll(async () => {
  await waiting?.close();
});

const blendAndWait = (waitOptions: IDataObject = {}) =>
  withParameters(readWorkflow('blend.json'), NODE, { waitForResult: true, waitOptions });
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Blend: Wait for Result', () => {
  it('waits, ignores progress, resumes on the final notification with the image as binary', async () => {
    const run = await waiting.run(blendAndWait());
    const executionId = setup.engine.lastExecutionId;
    expect(run.status).toBe('waiting');
    expect(run.data.resultData.metadata).toEqual({ mediagw_task_id: expect.stringMatching(/^\d{19}$/) });
    const request = setup.emu.requests.find((r) => r.operation === 'blend');
    // $execution.resumeUrl, signature kept.
    expect(request?.fields.notifyHook).toMatch(new RegExp(`^${waiting.url}/${executionId}\\?signature=[0-9a-f]{64}$`));

    await setup.emu.settled();
    // Two progress notifications answered 202 (still waiting), then the final one resumes.
    expect(setup.emu.notifications.map((n) => [n.body.status, n.status])).toEqual([
      ['IN_PROGRESS', 202],
      ['IN_PROGRESS', 202],
      ['SUCCESS', 200],
    ]);
    const finished = waiting.finished(executionId);
    expect(finished?.status).toBe('success');
    const [item] = outcomeOf(finished!, NODE).items;
    expect(item?.json).toMatchObject({
      operation: 'blend',
      taskId: request?.taskId,
      status: 'SUCCESS',
      notification: { id: request?.taskId, state: 'order-17' },
    });
    const image = await binaryBytes(item!, 'data');
    const served = await fetch(String(item?.json.resultUrl)).then(async (r) => Buffer.from(await r.arrayBuffer()));
    expect(sha256(image)).toBe(sha256(served));
    expect(item?.binary?.data?.mimeType).toBe('image/png');
  });

  it('a call without the awaited task ID, or a forged one, does not resume', async () => {
    setup.emu.setFault({ notifyProgress: 0, latencyMs: 0 });
    const run = await waiting.run(blendAndWait());
    const executionId = setup.engine.lastExecutionId;
    expect(run.status).toBe('waiting');
    // The emulator's own notification is on its way; forge ones first with another id.
    const url = `${waiting.url}/${executionId}`;
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: '1', status: 'SUCCESS', imageUrl: 'http://127.0.0.1:1/evil.png' }),
    });
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status":"SUCCESS"}',
    });
    expect([forged.status, anonymous.status]).toEqual([409, 409]);
    await setup.emu.settled();
    expect(waiting.finished(executionId)?.status).toBe('success');
  });

  it('a failure notification resumes with an error item naming the task; on the error output when the node has one', async () => {
    setup.emu.setFault({ notifyFailure: true, notifyProgress: 0 });
    await waiting.run(blendAndWait());
    const executionId = setup.engine.lastExecutionId;
    await setup.emu.settled();
    const [item] = outcomeOf(waiting.finished(executionId)!, NODE).items;
    expect(item?.json.error).toMatch(/^blend task \d{19} failed: emulated failure/);

    await waiting.run(withNodeSettings(blendAndWait(), NODE, { onError: 'continueErrorOutput' }));
    const second = setup.engine.lastExecutionId;
    await setup.emu.settled();
    const outputs = waiting.finished(second)?.data.resultData.runData[NODE]?.[0]?.data?.main ?? [];
    expect(outputs[0]).toEqual([]);
    expect((outputs[1]?.[0]?.json as IDataObject).error).toMatch(/failed: emulated failure/);
  });

  it('a time-out goes on with an error item naming the task ID', async () => {
    setup.emu.setFault({ notifyProgress: 0 });
    const run = await waiting.run(
      withParameters(blendAndWait({ timeLimitMinutes: 3 }), NODE, { options: { notifyHook: undefined } }),
    );
    const executionId = setup.engine.lastExecutionId;
    const taskId = run.data.resultData.metadata?.mediagw_task_id;
    // Resumed by the clock before the gateway said anything.
    const timedOut = await waiting.timeOut(executionId);
    const [item] = outcomeOf(timedOut, NODE).items;
    expect(item?.json).toEqual({
      error: `Timed out after 3 minute(s) waiting for the notification of blend task ${taskId}; the task may still finish: check with the gateway before submitting again`,
      details: { taskId, timedOut: true },
    });
    // With an error output, n8n routes the time-out there.
    await waiting.run(withNodeSettings(blendAndWait(), NODE, { onError: 'continueErrorOutput' }));
    const routed = await waiting.timeOut(setup.engine.lastExecutionId);
    const outputs = routed.data.resultData.runData[NODE]?.[0]?.data?.main ?? [];
    expect([outputs[0]?.length, (outputs[1]?.[0]?.json as IDataObject).error]).toEqual([
      0,
      expect.stringMatching(/^Timed out/),
    ]);
    await setup.emu.settled();
  });

  it('refuses more than one item, showing the fan-out idiom; refuses a Notify Hook set by hand', async () => {
    const two = withParameters(blendAndWait(), 'Images', {
      items: [
        { binary: { first: 'red.png', second: 'blue.png' } },
        { binary: { first: 'red.png', second: 'blue.png' } },
      ],
    });
    const many = outcomeOf(await waiting.run(two), NODE).error;
    expect(many?.message).toBe('Wait for Result takes one item; this run has 2');
    expect(many?.description).toMatch(/Execute Workflow node with "Mode: Run once for each item"/);
    const both = withParameters(blendAndWait(), NODE, { options: { notifyHook: 'https://example.com/hook' } });
    expect(outcomeOf(await waiting.run(both), NODE).error?.message).toBe(
      'Notify Hook and Wait for Result are both set',
    );
    expect(setup.emu.count('blend')).toBe(0);
  });
});
