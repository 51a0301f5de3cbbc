// Scenarios shared by the single-server and the queue-mode steps. Each takes a context
//   { step: Reporter, client: N8nClient, emulator, apiKey, webhookBase, credentialId }
// where `webhookBase` is the N8N_WEBHOOK_URL of the process that serves production webhooks
// (the instance itself, or the queue-mode webhook processor), and checks through n8n's public
// API and the emulator's records.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { FINAL_STATUSES, nodeOutput } from './api.mjs';
import { deliver, fixture, SAMPLE_VIDEO, submitBlend, triggerDeduplicates } from './gateway.mjs';
import { NODE_TYPES } from './package.mjs';
import { mapLimit, poll, postJson, sha256 } from './util.mjs';
import { blendWorkflow, takeOf, textToVideoWorkflow, triggerWorkflow } from './workflows.mjs';

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

/** Counts of a list by a key function, as a printable object. */
export function tally(list, key) {
  const out = {};
  for (const item of list) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** Creates and publishes a workflow, then waits until its production webhook is live. */
export async function deploy(ctx, workflow, path) {
  const created = await ctx.client.createWorkflow(workflow);
  await ctx.client.publish(created.id);
  const url = await ctx.client.waitForWebhook(ctx.webhookBase, path);
  return { id: created.id, url };
}

/** A notification body like the emulator's, for deliveries that need no real task. */
function sampleNotification(id = '1000000000000000001') {
  const now = Date.now();
  return {
    id,
    action: 'BLEND',
    status: 'SUCCESS',
    progress: '100%',
    imageUrl: `http://127.0.0.1:9/files/${id}.png`,
    state: null,
    submitTime: now,
    startTime: now,
    finishTime: now,
    description: 'Blended',
  };
}

/** Executions of a workflow with a final status: `ctx.finishedCount` if the step has a cheaper way. */
async function finishedCount(ctx, workflowId) {
  if (ctx.finishedCount) return ctx.finishedCount(workflowId);
  return (await ctx.client.listExecutions({ workflowId })).filter((e) => FINAL_STATUSES.has(e.status)).length;
}

/**
 * Media Gateway Trigger, activated with a token: wrong and missing tokens are refused with 401;
 * then `count` real blends on the emulator notify the production URL (?token=...). Checks one
 * successful execution per notification whose trigger item is the notification body, and no
 * execution for the refused calls.
 *
 * `repeatEvery` (n > 0): every n-th blend asks the emulator to deliver its notification twice
 * (`notify-repeat=2`, a gateway delivering again): still one execution per task, the repeat answered
 * 200 by the trigger's repeat memory.
 *
 * `maxBacklog` bounds how many notifications may be delivered ahead of the finished executions
 * (Infinity: a plain burst). In queue mode a deep backlog is what hurts: the webhook processor
 * holds every execution it enqueued until a worker finishes it (memory, DB connections), and on a
 * busy 2-core machine a 500-deep burst made it answer 500/503 or time out (see docs/n8n-queue-mode.md).
 */
export async function triggerNotifications(
  ctx,
  { label, count, submitConcurrency = 8, maxBacklog = Number.POSITIVE_INFINITY, timeoutMs = 120_000, repeatEvery = 0 },
) {
  const { step, client, emulator, apiKey } = ctx;
  const token = randomBytes(24).toString('hex');
  const { workflow, path, triggerNode } = triggerWorkflow({ name: `${label}: trigger`, token });
  const wf = await deploy(ctx, workflow, path);
  const hook = `${wf.url}?token=${token}`;

  const wrong = await deliver(`${wf.url}?token=not-${token}`, sampleNotification());
  step.check(`${label}: wrong token answered 401`, wrong.status === 401, `${wrong.status} ${wrong.text}`);
  const missing = await deliver(wf.url, sampleNotification());
  step.check(`${label}: missing token answered 401`, missing.status === 401, `${missing.status} ${missing.text}`);

  const before = emulator.notifications.length;
  const started = Date.now();
  let finished = 0;
  let submitted = 0;
  const taskIds = await mapLimit(range(count), submitConcurrency, async (i) => {
    if (submitted - finished >= maxBacklog) {
      await poll(
        async () => {
          finished = await finishedCount(ctx, wf.id);
          return submitted - finished < maxBacklog;
        },
        { what: `the backlog to fall below ${maxBacklog}`, timeoutMs, intervalMs: 200 },
      );
    }
    submitted++;
    const fault = repeatEvery > 0 && i % repeatEvery === 0 ? 'notify-repeat=2' : undefined;
    return submitBlend(emulator, apiKey, { notifyHook: hook, state: `${label}-${i}`, fault });
  });
  await emulator.settled();
  const ours = new Set(taskIds);
  const repeated = new Set(taskIds.filter((_, index) => repeatEvery > 0 && (index + 1) % repeatEvery === 0));
  const delivered = emulator.notifications.slice(before).filter((a) => ours.has(a.taskId));
  const answered = tally(delivered, (a) => a.status ?? a.error);
  const perTask = tally(delivered, (a) => a.taskId);
  const asMeant = taskIds.filter((id) => perTask[id] === (repeated.has(id) ? 2 : 1));
  step.check(
    `${label}: the emulator delivered ${count} notifications${repeated.size ? ` (${repeated.size} of them twice, on purpose)` : ''}, every delivery answered 200`,
    delivered.length === count + repeated.size && delivered.every((a) => a.status === 200) && asMeant.length === count,
    JSON.stringify(answered),
  );
  // The first delivery of each task.
  const firsts = new Map();
  for (const a of delivered) if (!firsts.has(a.taskId)) firsts.set(a.taskId, a);
  const attempts = [...firsts.values()];
  const jsonAnswer = (a) => {
    try {
      return JSON.parse(a.answer).code === 200;
    } catch {
      return false;
    }
  };
  step.check(
    `${label}: each accepted notification was answered with the trigger's JSON acknowledgment`,
    attempts.every(jsonAnswer),
    `answers seen: ${JSON.stringify(Object.keys(tally(attempts, (a) => a.answer)).slice(0, 3))}`,
  );

  // Wait for as many as n8n accepted (a refused delivery starts nothing): fails fast, not at the
  // deadline, when some were refused; the count check below says so.
  const accepted = attempts.filter((a) => a.status === 200).length;
  await client.waitForExecutions(wf.id, accepted, { timeoutMs });
  const executions = await client.listExecutions({ workflowId: wf.id, includeData: true });
  const wallMs = Math.max(...executions.map((e) => Date.parse(e.stoppedAt) || 0)) - started;
  const byTask = new Map();
  for (const execution of executions) {
    const [item] = nodeOutput(execution, triggerNode);
    const id = item?.json?.id;
    byTask.set(id, [...(byTask.get(id) ?? []), { execution, item }]);
  }
  step.check(
    `${label}: exactly ${count} executions, none for the refused calls${repeated.size ? ' nor for the repeats' : ''}`,
    executions.length === count,
    `${executions.length} executions`,
  );
  step.check(
    `${label}: every execution succeeded`,
    executions.every((e) => e.status === 'success'),
    JSON.stringify(tally(executions, (e) => e.status)),
  );
  const once = taskIds.filter((id) => byTask.get(id)?.length === 1);
  step.check(
    `${label}: one execution per notification`,
    once.length === count,
    `${count - once.length} task ids without exactly one execution`,
  );
  const bodyAsItem = attempts.filter((a) => isDeepStrictEqual(byTask.get(a.taskId)?.[0]?.item?.json, a.body));
  step.check(
    `${label}: the trigger's item JSON is the notification body`,
    bodyAsItem.length === count,
    `${count - bodyAsItem.length} differ; first: ${JSON.stringify(byTask.get(attempts[0]?.taskId)?.[0]?.item?.json)}`,
  );
  return { workflowId: wf.id, hook, attempts, executions, wallMs, triggerNode, repeated: repeated.size };
}

/** How many executions a workflow has (any status). */
export async function executionCount(client, workflowId) {
  return (await client.listExecutions({ workflowId })).length;
}

/**
 * Waits up to `graceMs` for a workflow to get more than `expected` executions (n8n stores an
 * execution before the webhook answers; the grace covers a slow list on a busy machine). Returns
 * the count seen.
 */
export async function countAfterGrace(client, workflowId, expected, graceMs = 4000) {
  return poll(
    async () => {
      const n = await executionCount(client, workflowId);
      return n > expected ? n : false;
    },
    { what: 'another execution', timeoutMs: graceMs },
  ).catch(() => executionCount(client, workflowId));
}

/**
 * The trigger's repeat memory (Options -> "Ignore Repeats Within (Minutes)", on by default): the same
 * notification (task id and status) again starts no second execution and is answered 200. Three
 * ways: a repeat of a delivery whose run finished; the same notification twice at the same moment;
 * a real blend whose notification the emulator delivers twice (`notify-repeat=2`). PASS/FAIL when
 * the loaded trigger has the option (triggerDeduplicates); otherwise SKIPs saying what n8n did.
 */
export async function repeatedDelivery(ctx, { label, workflowId, hook, attempt, triggerNode }) {
  const { step, client, emulator, apiKey } = ctx;
  const option = triggerDeduplicates(await client.nodeType(NODE_TYPES.trigger));
  const report = (name, ok, detail) =>
    option ? step.check(name, ok, detail) : step.skip(name, `no repeat option in the trigger: ${detail}`);
  const settledCount = async (expected) => {
    await client.waitForExecutions(workflowId, expected, { timeoutMs: 60_000 });
    return countAfterGrace(client, workflowId, expected);
  };
  const repeatAnswer = (r) => r.status === 200 && /Already received; no new run started/.test(r.text);
  if (option)
    step.info(
      `${label}: the trigger's repeat option, as n8n loaded it: "${option.displayName ?? option.name}" (${option.name}, default ${option.default})`,
    );

  // 1. A repeat after the first delivery's run finished.
  let base = await executionCount(client, workflowId);
  const again = await deliver(hook, attempt.body);
  let seen = await countAfterGrace(client, workflowId, base);
  report(
    `${label}: a repeated delivery of the same notification gets 200 "Already received" and starts no second execution`,
    repeatAnswer(again) && seen === base,
    `HTTP ${again.status} ${again.text.slice(0, 120)}; executions ${base} -> ${seen}`,
  );

  // 2. The same notification twice at the same moment.
  base = seen;
  const id = `8${Date.now()}${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  const body = sampleNotification(id);
  const both = await Promise.all([deliver(hook, body), deliver(hook, body)]);
  seen = await settledCount(base + 1);
  const fresh = (await client.listExecutions({ workflowId, includeData: true })).filter(
    (e) => nodeOutput(e, triggerNode)[0]?.json?.id === id,
  );
  report(
    `${label}: the same notification twice at once: both answered 200, one of them "Already received"; exactly one execution`,
    both.every((r) => r.status === 200) &&
      both.filter(repeatAnswer).length === 1 &&
      seen === base + 1 &&
      fresh.length === 1,
    `answers ${JSON.stringify(both.map((r) => [r.status, r.text.slice(0, 60)]))}; executions ${base} -> ${seen}, ${fresh.length} for the task`,
  );

  // 3. A real blend whose final notification the gateway delivers twice.
  base = seen;
  const taskId = await submitBlend(emulator, apiKey, {
    notifyHook: hook,
    state: `${label}-repeat`,
    fault: 'notify-repeat=2',
  });
  await emulator.settled();
  const attempts = emulator.notifications.filter((a) => a.taskId === taskId);
  seen = await settledCount(base + 1);
  report(
    `${label}: the emulator's notify-repeat=2 through a real blend: both deliveries answered 200, one execution`,
    attempts.length === 2 && attempts.every((a) => a.status === 200) && seen === base + 1,
    `deliveries ${JSON.stringify(attempts.map((a) => a.status ?? a.error))}; executions ${base} -> ${seen}`,
  );
  return { supported: Boolean(option), executions: seen };
}

/**
 * `count` POSTs to an activated Webhook -> "Which process" -> Media Gateway Text to Video
 * (Download Video on). Checks every execution succeeded, every task was submitted once, and
 * every stored video's bytes (read back through n8n's binary-data endpoint) match the emulator's
 * file; `binaryMode` is the storage mode the binary ids must show ("filesystem-v2", "database").
 * Returns the wall time (first POST to last stoppedAt), the executions and which process ran each.
 */
export async function textToVideoFanout(ctx, { label, count, binaryMode, postConcurrency = 10, timeoutMs = 300_000 }) {
  const { step, client, emulator, credentialId } = ctx;
  const { workflow, path } = textToVideoWorkflow({ name: `${label}: text to video`, credentialId });
  const wf = await deploy(ctx, workflow, path);
  const before = emulator.requests.length;

  const started = Date.now();
  const posted = await mapLimit(range(count), postConcurrency, async (n) => (await postJson(wf.url, { n })).status);
  step.check(
    `${label}: ${count} webhook calls answered 200`,
    posted.every((s) => s === 200),
    JSON.stringify(tally(posted, (s) => s)),
  );
  await client.waitForExecutions(wf.id, count, { timeoutMs });
  const executions = await client.listExecutions({ workflowId: wf.id, includeData: true });
  const wallMs = Math.max(...executions.map((e) => Date.parse(e.stoppedAt) || 0)) - started;

  step.check(
    `${label}: ${count} executions, all succeeded`,
    executions.length === count && executions.every((e) => e.status === 'success'),
    JSON.stringify(tally(executions, (e) => e.status)),
  );
  const runs = executions.map((execution) => {
    const [tag] = nodeOutput(execution, 'Which process');
    const [item] = nodeOutput(execution, 'Media Gateway');
    return { execution, process: tag?.json?.process, n: tag?.json?.n, binary: item?.binary?.data, json: item?.json };
  });
  const submitted = emulator.requests.slice(before).filter((r) => r.operation === 'text-to-video');
  const takes = submitted.map((r) => takeOf(r.fields.prompt)?.n);
  const once = range(count).filter((n) => takes.filter((t) => t === n).length === 1);
  step.check(
    `${label}: the emulator got each of the ${count} tasks exactly once`,
    submitted.length === count && once.length === count,
    `${submitted.length} submissions, ${count - once.length} takes not exactly once`,
  );
  const modeOk = runs.filter((r) => String(r.binary?.id ?? '').startsWith(`${binaryMode}:`));
  step.check(
    `${label}: every video stored as binary in "${binaryMode}" mode`,
    modeOk.length === count,
    `ids seen: ${JSON.stringify([...new Set(runs.map((r) => String(r.binary?.id ?? r.binary?.data).split(':')[0]))])}`,
  );
  const expected = sha256(SAMPLE_VIDEO);
  const hashes = await mapLimit(runs, 8, async (r) =>
    r.binary?.id ? sha256((await client.binaryData(r.binary.id)).bytes) : undefined,
  );
  step.check(
    `${label}: every stored video read back through n8n matches the emulator's file (sha256)`,
    hashes.every((h) => h === expected),
    `${hashes.filter((h) => h !== expected).length} differ`,
  );
  return { workflowId: wf.id, url: wf.url, wallMs, executions, runs, byProcess: tally(runs, (r) => r.process) };
}

/**
 * n8n -> gateway -> n8n: a workflow started by a multipart POST (two PNGs) runs Media Gateway
 * Blend with the notify hook set to an activated trigger's production URL; the emulator calls it
 * back. Checks the blend execution (task id), what the gateway received (both images, the hook)
 * and the trigger execution that carries the same task id and state. The shape of the coming
 * Wait-for-Result scenario: there the hook is the blend execution's own resume URL.
 */
export async function blendRoundTrip(ctx, { label }) {
  const { step, client, emulator, credentialId } = ctx;
  const token = randomBytes(24).toString('hex');
  const trigger = triggerWorkflow({ name: `${label}: trigger`, token });
  const triggerWf = await deploy(ctx, trigger.workflow, trigger.path);
  const hook = `${triggerWf.url}?token=${token}`;
  const blend = blendWorkflow({ name: `${label}: blend`, credentialId, notifyHook: hook });
  const blendWf = await deploy(ctx, blend.workflow, blend.path);

  const state = `${label}-${randomBytes(4).toString('hex')}`;
  const images = [fixture('red.png'), fixture('blue.png')];
  const form = new FormData();
  form.append('state', state);
  images.forEach((bytes, i) => {
    form.append(`image${i}`, new Blob([bytes], { type: 'image/png' }), `image${i}.png`);
  });
  const before = emulator.requests.length;
  const posted = await fetch(blendWf.url, { method: 'POST', body: form, signal: AbortSignal.timeout(30_000) });
  await posted.arrayBuffer();
  step.check(`${label}: multipart POST to the blend workflow answered 200`, posted.status === 200, posted.status);

  const [started] = await client.waitForExecutions(blendWf.id, 1, { timeoutMs: 60_000 });
  const execution = await client.getExecution(started.id);
  const [item] = nodeOutput(execution, 'Media Gateway');
  const taskId = item?.json?.taskId;
  step.check(
    `${label}: the Blend execution succeeded with a task id`,
    execution.status === 'success' && /^\d+$/.test(String(taskId)),
    `${execution.status} ${JSON.stringify(execution.data?.resultData?.error?.message ?? item?.json)}`,
  );
  const request = emulator.requests.slice(before).find((r) => r.operation === 'blend');
  const sent = (request?.images ?? []).map((i) => i.sha256).sort();
  step.check(
    `${label}: the gateway received both images and the trigger's URL as notify hook`,
    request?.taskId === taskId &&
      sent.join() ===
        images
          .map((b) => sha256(b))
          .sort()
          .join() &&
      request?.fields?.notifyHook === hook &&
      request?.fields?.state === state,
    JSON.stringify({ sent, notifyHook: request?.fields?.notifyHook === hook, state: request?.fields?.state }),
  );
  await emulator.settled();
  const attempt = emulator.notifications.find((a) => a.taskId === taskId);
  step.check(`${label}: the gateway's callback was answered 200`, attempt?.status === 200, JSON.stringify(attempt));
  const [notified] = await client.waitForExecutions(triggerWf.id, 1, { timeoutMs: 60_000 });
  const triggerExecution = await client.getExecution(notified.id);
  const [event] = nodeOutput(triggerExecution, trigger.triggerNode);
  step.check(
    `${label}: the trigger's execution carries the blend's task id and state`,
    triggerExecution.status === 'success' && event?.json?.id === taskId && event?.json?.state === state,
    JSON.stringify(event?.json),
  );
  return { blendExecution: execution, triggerExecution, taskId, hook };
}
