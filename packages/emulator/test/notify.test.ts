/** Blend notifyHook deliveries to a real server on loopback, with retries. */
import { createServer } from 'node:net';
import { readNotification } from '@mediagw/core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../src/index.js';
import { clientFor, jsonHeaders, KEY, paths, post, solidPng, startHookServer } from './helpers.js';

const IMAGE = solidPng(6, 6, [0, 128, 255, 255]);
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ notifyBackoffMs: 10 });
});
afterAll(async () => {
  await emu.close();
});

it('posts the finished task to notifyHook, state echoed, image downloadable', async () => {
  const hook = await startHookServer();
  const client = clientFor(emu);
  const result = await client.blend({
    base64Array: [{ data: IMAGE }, { data: IMAGE }],
    notifyHook: hook.url,
    state: 'order-42',
  });
  await emu.settled();

  expect(hook.received).toHaveLength(1);
  const { body, headers } = hook.received[0]!;
  expect(headers['content-type']).toBe('application/json');
  expect(body).toEqual({
    id: result.taskId,
    action: 'BLEND',
    status: 'SUCCESS',
    progress: '100%',
    imageUrl: `${emu.url}/files/${result.taskId}.png`,
    failReason: null,
    state: 'order-42',
    submitTime: expect.any(Number),
    startTime: expect.any(Number),
    finishTime: expect.any(Number),
    description: 'Blended',
  });
  expect(body.submitTime as number).toBeLessThanOrEqual(body.startTime as number);
  expect(body.startTime as number).toBeLessThanOrEqual(body.finishTime as number);
  const png = PNG.sync.read(Buffer.from(await (await fetch(body.imageUrl as string)).arrayBuffer()));
  expect([png.width, png.height]).toEqual([6, 6]);
  expect(emu.notifications.at(-1)).toMatchObject({
    taskId: result.taskId,
    url: hook.url,
    attempt: 1,
    status: 200,
    answer: 'answered 200',
  });

  await client.close();
  await hook.close();
});

it('retries when the hook fails, then stops at the first success', async () => {
  const hook = await startHookServer((attempt) => (attempt === 0 ? 500 : 204));
  emu.reset();
  const client = clientFor(emu);
  const result = await client.blend({ base64Array: [{ data: IMAGE }], notifyHook: hook.url });
  await emu.settled();
  expect(emu.notifications.map((n) => [n.attempt, n.status])).toEqual([
    [1, 500],
    [2, 204],
  ]);
  expect(hook.received.map((r) => r.body.id)).toEqual([result.taskId]);
  expect(hook.received[0]!.body.state).toBeNull();
  await client.close();
  await hook.close();
});

it('gives up after notifyRetries when the hook cannot be reached', async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));

  const lonely = await startEmulator({ notifyRetries: 1, notifyBackoffMs: 5 });
  const client = clientFor(lonely);
  await client.blend({ base64Array: [{ data: IMAGE }], notifyHook: `http://127.0.0.1:${port}/hook` });
  await lonely.settled();
  expect(lonely.notifications.map((n) => [n.attempt, n.status, n.error])).toEqual([
    [1, undefined, 'ECONNREFUSED'],
    [2, undefined, 'ECONNREFUSED'],
  ]);
  await client.close();
  await lonely.close();
});

it('sends progress notifications first, then the final one; a failure fault and repeated deliveries on request', async () => {
  const hook = await startHookServer();
  const client = clientFor(emu);
  const withFault = (fault: Parameters<Emulator['setFault']>[0]) => {
    emu.setFault(fault);
    return client.blend({ base64Array: [{ data: IMAGE }, { data: IMAGE }], notifyHook: hook.url });
  };

  const progressed = await withFault({ notifyProgress: 2 });
  await emu.settled();
  expect(hook.received.map((r) => [r.body.status, r.body.progress, r.body.id])).toEqual([
    ['IN_PROGRESS', '33%', progressed.taskId],
    ['IN_PROGRESS', '66%', progressed.taskId],
    ['SUCCESS', '100%', progressed.taskId],
  ]);
  expect(hook.received[0]?.body.imageUrl).toBeNull();
  // The core's default notification rule reads these as the gateway means them.
  expect(hook.received.map((r) => readNotification(r.body).outcome)).toEqual(['pending', 'pending', 'success']);

  hook.received.length = 0;
  const failed = await withFault({ notifyFailure: true, notifyRepeat: 2 });
  await emu.settled();
  expect(hook.received.map((r) => [r.body.status, r.body.id])).toEqual([
    ['FAILURE', failed.taskId],
    ['FAILURE', failed.taskId],
  ]);
  expect(hook.received[0]?.body).toMatchObject({
    imageUrl: null,
    failReason: expect.stringMatching(/emulated failure/),
  });
  emu.setFault(undefined);
  await client.close();
  await hook.close();
});

it('holds notifications until released (per task or all); close drops what is still held', async () => {
  const hook = await startHookServer();
  const client = clientFor(emu);
  emu.reset();
  emu.setFault({ notifyHold: true, notifyProgress: 1 });
  const first = await client.blend({ base64Array: [{ data: IMAGE }, { data: IMAGE }], notifyHook: hook.url });
  const second = await client.blend({ base64Array: [{ data: IMAGE }, { data: IMAGE }], notifyHook: hook.url });
  emu.setFault(undefined);
  await emu.settled();
  // Nothing sent: settled() does not wait for held notifications.
  expect(hook.received).toHaveLength(0);
  expect(emu.heldNotifications).toEqual([
    { taskId: first.taskId, url: hook.url, count: 2 },
    { taskId: second.taskId, url: hook.url, count: 2 },
  ]);

  expect(emu.releaseNotifications([second.taskId!])).toBe(1);
  await emu.settled();
  expect(hook.received.map((r) => [r.body.id, r.body.status])).toEqual([
    [second.taskId, 'IN_PROGRESS'],
    [second.taskId, 'SUCCESS'],
  ]);
  expect(emu.heldNotifications.map((h) => h.taskId)).toEqual([first.taskId]);
  expect(emu.releaseNotifications([second.taskId!])).toBe(0);

  // A header fault holds too; release() without ids sends everything held.
  const raw = await post(
    emu.url + paths().blend,
    JSON.stringify({ base64Array: [`data:image/png;base64,${IMAGE.toString('base64')}`], notifyHook: hook.url }),
    jsonHeaders({ 'img-api-secret': KEY, 'x-emulator-fault': 'notify-hold' }),
  );
  const third = { taskId: String(raw.json().result) };
  await emu.settled();
  expect(emu.heldNotifications.map((h) => h.taskId)).toEqual([first.taskId, third.taskId]);
  expect(emu.releaseNotifications()).toBe(2);
  await emu.settled();
  // Tasks are delivered side by side; each task's notifications in order.
  const of = (id: string | undefined) => hook.received.filter((r) => r.body.id === id).map((r) => r.body.status);
  expect([of(first.taskId), of(third.taskId)]).toEqual([['IN_PROGRESS', 'SUCCESS'], ['SUCCESS']]);

  const other = await startEmulator({ fault: { notifyHold: true } });
  const otherClient = clientFor(other);
  await otherClient.blend({ base64Array: [{ data: IMAGE }, { data: IMAGE }], notifyHook: hook.url });
  expect(other.heldNotifications).toHaveLength(1);
  await other.close();
  expect(other.heldNotifications).toHaveLength(0);
  expect(hook.received).toHaveLength(5);
  await otherClient.close();
  await client.close();
  await hook.close();
});

it('produced-file URLs use the public URL when one is set', async () => {
  const other = await startEmulator({ host: '0.0.0.0', publicUrl: 'http://host.docker.internal:8787/' });
  try {
    const video = await clientFor(other).textToVideo({ prompt: 'a lighthouse at dusk, waves rolling in slowly' });
    expect(video.videoUrl).toMatch(/^http:\/\/host\.docker\.internal:8787\/files\/[0-9a-f-]+\.mp4$/);
    expect(other.publicUrl).toBe('http://host.docker.internal:8787');
  } finally {
    await other.close();
  }
});
