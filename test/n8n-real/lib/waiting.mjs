// Blend with Wait for Result in a running n8n: the execution pauses, the gateway's notification to
// `$execution.resumeUrl` resumes it. Shared by the single-server and queue-mode steps; checked through
// n8n's public API and the emulator's records. The emulator holds each blend's notifications
// (`notifyHold`) until a scenario releases them, so "waiting" is observed, not raced.
import { executionError, FINAL_STATUSES, nodeOutput, waitingTaskId } from './api.mjs';
import { deliver, withFault } from './gateway.mjs';
import { countAfterGrace, deploy, tally } from './scenarios.mjs';
import { mapLimit, poll, postJson, sha256 } from './util.mjs';
import { blendWaitWorkflow, exampleWorkflow } from './workflows.mjs';

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);
const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sorted = (list) => [...list].sort().join(',');
const isDeepEqual = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** `<N8N_WEBHOOK_URL>webhook-waiting/<id>?signature=<64 hex>`: returns the execution id, or undefined. */
export function resumeUrlExecution(webhookBase, url) {
  const match = new RegExp(`^${escapeRe(webhookBase)}webhook-waiting/(\\d+)\\?signature=[0-9a-f]{64}$`).exec(
    String(url ?? ''),
  );
  return match?.[1];
}

/** The message of a JSON answer (n8n's errors also carry a stack trace), else the text's start. */
function messageOf(answer = '') {
  try {
    return JSON.stringify(JSON.parse(answer).message);
  } catch {
    return answer.slice(0, 200);
  }
}

/** The final notification the emulator would send for a task (for deliveries made by the test). */
function finalNotification(emulator, taskId, extra = {}) {
  const now = Date.now();
  return {
    id: taskId,
    action: 'BLEND',
    status: 'SUCCESS',
    progress: '100%',
    imageUrl: `${emulator.url}/files/${taskId}.png`,
    failReason: null,
    state: 'example-wait',
    submitTime: now,
    startTime: now,
    finishTime: now,
    description: 'Blended',
    ...extra,
  };
}

/** Executions of a workflow, by id. */
const idsOf = async (client, workflowId) =>
  new Set((await client.listExecutions({ workflowId })).map((e) => String(e.id)));

/**
 * POSTs to the workflow's production webhook and waits until the new execution is "waiting"
 * (public API). Fails fast if it ends first (unless `orEnded`: a notification may have resumed it
 * before the poll saw it wait). Returns the execution (with data and custom data),
 * its task id and the emulator's record of the blend it sent.
 */
async function startWaiting(ctx, wf, { orEnded = false } = {}) {
  const { client, emulator } = ctx;
  const before = await idsOf(client, wf.id);
  const requestsBefore = emulator.requests.length;
  const posted = await postJson(wf.url, { started: Date.now() });
  if (posted.status !== 200) throw new Error(`POST ${wf.url}: HTTP ${posted.status} ${posted.text.slice(0, 300)}`);
  const found = await poll(
    async () => {
      const fresh = (await client.listExecutions({ workflowId: wf.id })).filter((e) => !before.has(String(e.id)));
      const [execution] = fresh;
      if (execution && FINAL_STATUSES.has(execution.status)) {
        if (orEnded) return execution;
        const full = await client.getExecution(execution.id);
        throw Object.assign(
          new Error(`execution ${execution.id} ended "${execution.status}" before waiting: ${executionError(full)}`),
          { fatal: true },
        );
      }
      return execution?.status === 'waiting' ? execution : false;
    },
    { what: `an execution of workflow ${wf.id} to wait`, timeoutMs: 60_000 },
  );
  const execution = await client.getExecution(found.id);
  const request = emulator.requests.slice(requestsBefore).find((r) => r.operation === 'blend');
  return { execution, taskId: waitingTaskId(execution), request };
}

/** The emulator's delivery attempts for a task, as [status sent, HTTP answer]. */
const attemptsOf = (emulator, taskId) =>
  emulator.notifications.filter((a) => a.taskId === taskId).map((a) => [a.body.status, a.status ?? a.error]);

/**
 * examples/n8n/blend-wait.json with a 1-minute time limit and a gateway that never notifies: started
 * now, checked by `finish()` once n8n's own clock resumed it (about a minute later; the step runs
 * other scenarios meanwhile). Then the held notification is sent late: n8n answers 409, nothing runs.
 */
export async function startBlendWaitTimeOut(ctx, { label, filesDir }) {
  const { step, client, emulator, credentialId } = ctx;
  const { workflow, path } = blendWaitWorkflow({
    name: `${label}: blend wait (time-out)`,
    filesDir,
    credentialId,
    timeLimitMinutes: 1,
  });
  const wf = await deploy(ctx, workflow, path);
  const { execution, taskId, request } = await withFault(emulator, { notifyHold: true }, () => startWaiting(ctx, wf));
  // The node sets the limit right after the gateway took the blend.
  const limitMs = Date.parse(execution.waitTill) - (request?.receivedAt ?? Number.NaN);
  step.check(
    `${label}: time-out run waits with Time Limit 1 minute (waitTill about 60 s after the blend was submitted), gateway silent`,
    execution.status === 'waiting' &&
      /^\d+$/.test(String(taskId)) &&
      taskId === request?.taskId &&
      limitMs > 58_000 &&
      limitMs < 70_000,
    JSON.stringify({ status: execution.status, taskId, waitTill: execution.waitTill, limitMs }),
  );
  return {
    async finish() {
      const done = await client.waitForExecution(execution.id, { timeoutMs: 180_000, intervalMs: 1000 });
      const message = executionError(done) ?? '';
      step.check(
        `${label}: after the time limit n8n resumed it and the run ended "error" with the time-out naming the task ID`,
        done.status === 'error' &&
          message.startsWith(
            `Timed out after 1 minute(s) waiting for the notification of blend task ${taskId}; the task may still finish`,
          ),
        `${done.status}: ${message}`,
      );
      step.figure(
        `${label}: time-out run, start to end (Time Limit 1 minute)`,
        `${((Date.parse(done.stoppedAt) - Date.parse(done.startedAt)) / 1000).toFixed(1)} s`,
      );
      // The gateway finishes late: its notification finds the run over.
      emulator.releaseNotifications([taskId]);
      await emulator.settled();
      const seen = await countAfterGrace(client, wf.id, 1);
      const after = await client.getExecution(execution.id);
      step.check(
        `${label}: a notification after the time-out gets 409 and resumes nothing`,
        isDeepEqual(attemptsOf(emulator, taskId), [['SUCCESS', 409]]) && seen === 1 && after.status === 'error',
        JSON.stringify({ attempts: attemptsOf(emulator, taskId), executions: seen, status: after.status }),
      );
      return { execution: done };
    },
  };
}

/**
 * examples/n8n/blend-wait.json in a running n8n, started by its production Webhook:
 * success (progress notifications first), the resume URL and what it refuses (wrong or missing
 * signature: 401; another task: 409; a repeat after the end: 409), a gateway failure, and a
 * notification that comes before n8n has saved the wait.
 */
export async function blendWaitLifecycle(ctx, { label, filesDir, images }) {
  const { step, client, emulator, credentialId, webhookBase } = ctx;
  const { workflow, path } = blendWaitWorkflow({ name: `${label}: blend wait`, filesDir, credentialId });
  const wf = await deploy(ctx, workflow, path);
  const out = {};

  // 1. Success: two progress notifications, then the final one.
  let started = await withFault(emulator, { notifyHold: true, notifyProgress: 2 }, () => startWaiting(ctx, wf));
  const { execution, taskId, request } = started;
  step.check(
    `${label}: the execution waits (API status "waiting"); its custom data mediagw_task_id is the task the gateway created`,
    execution.status === 'waiting' && /^\d+$/.test(String(taskId)) && taskId === request?.taskId,
    JSON.stringify({ status: execution.status, customData: execution.customData, emulator: request?.taskId }),
  );
  const hook = String(request?.fields?.notifyHook ?? '');
  step.check(
    `${label}: the notify hook sent to the gateway is ${webhookBase}webhook-waiting/<execution id>?signature=<64 hex>`,
    resumeUrlExecution(webhookBase, hook) === String(execution.id),
    hook,
  );
  const sent = (request?.images ?? []).map((i) => i.sha256);
  step.check(
    `${label}: the gateway received the ${images.length} images the example read`,
    sorted(sent) === sorted(images.map((b) => sha256(b))),
    JSON.stringify(sent),
  );

  // What the resume URL refuses, while the execution waits.
  const body = finalNotification(emulator, taskId);
  const wrongSignature = await deliver(hook.replace(/signature=[0-9a-f]{64}/, `signature=${'0'.repeat(64)}`), body);
  const noSignature = await deliver(hook.split('?')[0], body);
  const forged = await deliver(hook, { ...body, id: `9${String(taskId).slice(1)}` });
  const anonymous = await deliver(hook, { status: 'SUCCESS', imageUrl: body.imageUrl });
  const still = await client.getExecution(execution.id);
  step.check(
    `${label}: a call with a wrong or missing signature gets 401 "Invalid token" and resumes nothing`,
    wrongSignature.status === 401 &&
      noSignature.status === 401 &&
      /Invalid token/.test(wrongSignature.text) &&
      still.status === 'waiting',
    JSON.stringify({ wrongSignature, noSignature, status: still.status }),
  );
  step.check(
    `${label}: a signed call naming another task (or none) gets 409 and resumes nothing`,
    forged.status === 409 && anonymous.status === 409 && still.status === 'waiting',
    JSON.stringify({ forged, anonymous, status: still.status }),
  );

  emulator.releaseNotifications([taskId]);
  await emulator.settled();
  step.check(
    `${label}: the emulator's notifications: progress answered 202 (still waiting) twice, the final one 200`,
    isDeepEqual(attemptsOf(emulator, taskId), [
      ['IN_PROGRESS', 202],
      ['IN_PROGRESS', 202],
      ['SUCCESS', 200],
    ]),
    JSON.stringify(attemptsOf(emulator, taskId)),
  );
  const done = await client.waitForExecution(execution.id, { timeoutMs: 60_000 });
  const [item] = nodeOutput(done, 'Blended image');
  step.check(
    `${label}: the execution resumed and finished "success" with the task's result`,
    done.status === 'success' &&
      item?.json?.taskId === taskId &&
      item?.json?.status === 'SUCCESS' &&
      item?.json?.resultUrl === body.imageUrl,
    `${done.status} ${executionError(done) ?? JSON.stringify(item?.json)}`,
  );
  const binary = item?.binary?.data;
  const stored = binary?.id ? (await client.binaryData(binary.id)).bytes : undefined;
  const served = Buffer.from(await (await fetch(body.imageUrl)).arrayBuffer());
  step.check(
    `${label}: the blended PNG is the output's binary; read back through n8n its bytes match the emulator's file (sha256)`,
    binary?.mimeType === 'image/png' && stored !== undefined && sha256(stored) === sha256(served),
    JSON.stringify({ mimeType: binary?.mimeType, id: binary?.id, bytes: stored?.length, served: served.length }),
  );
  const finalBody = emulator.notifications.find((a) => a.taskId === taskId && a.body.status === 'SUCCESS')?.body;
  const repeated = await deliver(hook, finalBody);
  const seen = await countAfterGrace(client, wf.id, 1);
  step.check(
    `${label}: the final notification delivered again after the run finished gets 409 and starts nothing`,
    repeated.status === 409 && seen === 1 && (await client.getExecution(execution.id)).status === 'success',
    JSON.stringify({ repeated, executions: seen }),
  );
  out.success = done;

  // 2. The gateway says the task failed: the example's error output ends the run on Stop and Error.
  started = await withFault(emulator, { notifyHold: true, notifyFailure: true }, () => startWaiting(ctx, wf));
  emulator.releaseNotifications([started.taskId]);
  await emulator.settled();
  const failed = await client.waitForExecution(started.execution.id, { timeoutMs: 60_000 });
  const message = executionError(failed) ?? '';
  step.check(
    `${label}: a failure notification (answered 200) ends the run "error", its message naming the task ID`,
    isDeepEqual(attemptsOf(emulator, started.taskId), [['FAILURE', 200]]) &&
      failed.status === 'error' &&
      message.startsWith(`blend task ${started.taskId} failed: emulated failure`),
    `${failed.status}: ${message} ${JSON.stringify(attemptsOf(emulator, started.taskId))}`,
  );
  out.failure = failed;

  // 3. No hold: the emulator notifies the moment it has answered the blend, before n8n has saved the
  // execution as waiting. n8n refuses that call (409 "is running already"); a gateway that delivers
  // again (as the test does here) resumes it.
  started = await startWaiting(ctx, wf, { orEnded: true });
  await emulator.settled();
  const early = emulator.notifications.filter((a) => a.taskId === started.taskId);
  step.info(
    `${label}: a final notification sent the moment the blend was answered: n8n answered ${early
      .map((a) => `HTTP ${a.status ?? a.error} ${messageOf(a.answer)}`.trim())
      .join('; ')}`,
  );
  if (!early.some((a) => a.status === 200)) {
    const again = await deliver(
      started.request.fields.notifyHook,
      emulator.notifications.find((a) => a.taskId === started.taskId).body,
    );
    step.info(`${label}: the same notification delivered again: HTTP ${again.status}`);
  }
  const resumed = await client.waitForExecution(started.execution.id, { timeoutMs: 60_000 });
  step.check(
    `${label}: a notification that came before n8n saved the wait resumes the run when delivered again`,
    resumed.status === 'success' && nodeOutput(resumed, 'Blended image')[0]?.json?.taskId === started.taskId,
    `${resumed.status} ${executionError(resumed) ?? ''}`,
  );
  out.early = resumed;
  return out;
}

/**
 * `count` POSTs to blend-wait.json (with "Which process" after the result): every execution waits
 * (all at once: the emulator holds the notifications until then), the notify hooks point at
 * `webhookBase` (the webhook processor in queue mode), then the notifications are released: each
 * execution resumes once and succeeds; none lost, none doubled (executions and the emulator's records).
 */
export async function blendWaitMany(
  ctx,
  { label, count, filesDir, hookOwner = 'n8n', postConcurrency = 10, timeoutMs = 300_000 },
) {
  const { step, client, emulator, credentialId, webhookBase } = ctx;
  const { workflow, path } = blendWaitWorkflow({
    name: `${label}: blend wait x${count}`,
    filesDir,
    credentialId,
    processTag: true,
  });
  const wf = await deploy(ctx, workflow, path);
  const requestsBefore = emulator.requests.length;
  const started = Date.now();
  emulator.setFault({ notifyHold: true, notifyProgress: 1 });
  let waiting;
  try {
    const posted = await mapLimit(range(count), postConcurrency, async (n) => (await postJson(wf.url, { n })).status);
    step.check(
      `${label}: ${count} webhook calls answered 200`,
      posted.every((s) => s === 200),
      JSON.stringify(tally(posted, (s) => s)),
    );
    let seen = [];
    await poll(
      async () => {
        seen = await client.listExecutions({ workflowId: wf.id });
        const ended = seen.filter((e) => FINAL_STATUSES.has(e.status));
        if (ended.length > 0) {
          const first = await client.getExecution(ended[0].id);
          throw Object.assign(new Error(`${ended.length} ended before waiting: ${executionError(first)}`), {
            fatal: true,
          });
        }
        return seen.filter((e) => e.status === 'waiting').length >= count;
      },
      {
        what: `${count} waiting executions`,
        timeoutMs,
        intervalMs: 500,
        last: () => JSON.stringify(tally(seen, (e) => e.status)),
      },
    );
    waiting = await client.listExecutions({ workflowId: wf.id, status: 'waiting', includeData: true });
  } finally {
    emulator.setFault(undefined);
  }
  const submissions = emulator.requests.slice(requestsBefore).filter((r) => r.operation === 'blend');
  const submittedMs = Math.max(...submissions.map((r) => r.receivedAt)) - started;
  const taskIds = waiting.map((e) => waitingTaskId(e));
  step.check(
    `${label}: all ${count} executions waiting at once (API status "waiting"), each for its own task`,
    waiting.length === count && new Set(taskIds).size === count && taskIds.every((id) => /^\d+$/.test(String(id))),
    `${waiting.length} waiting, ${new Set(taskIds).size} distinct task ids`,
  );
  step.check(
    `${label}: the gateway got exactly ${count} blends, the tasks the executions wait for`,
    submissions.length === count && sorted(submissions.map((r) => r.taskId)) === sorted(taskIds),
    `${submissions.length} submissions`,
  );
  const byTask = new Map(waiting.map((e) => [waitingTaskId(e), String(e.id)]));
  const hooksOk = submissions.filter(
    (r) => resumeUrlExecution(webhookBase, r.fields.notifyHook) === byTask.get(r.taskId),
  );
  step.check(
    `${label}: every notify hook is ${webhookBase}webhook-waiting/<its execution>?signature=... (${hookOwner})`,
    hooksOk.length === count,
    `${count - hooksOk.length} differ; first: ${submissions[0]?.fields?.notifyHook}`,
  );

  const releasedAt = Date.now();
  emulator.releaseNotifications(taskIds);
  await client.waitForExecutions(wf.id, count, { timeoutMs });
  await emulator.settled();
  const executions = await client.listExecutions({ workflowId: wf.id, includeData: true });
  const endedAt = Math.max(...executions.map((e) => Date.parse(e.stoppedAt) || 0));
  step.check(
    `${label}: exactly ${count} executions, all ended "success"`,
    executions.length === count && executions.every((e) => e.status === 'success'),
    JSON.stringify(tally(executions, (e) => e.status)),
  );
  const ours = new Set(taskIds);
  const attempts = emulator.notifications.filter((a) => ours.has(a.taskId));
  const hookHost = new URL(webhookBase).host;
  const perTask = taskIds.filter((id) =>
    isDeepEqual(attemptsOf(emulator, id), [
      ['IN_PROGRESS', 202],
      ['SUCCESS', 200],
    ]),
  );
  step.check(
    `${label}: the emulator's ${attempts.length} notifications all went to ${hookHost} (${hookOwner}); per task the progress one answered 202, the final one 200, once`,
    attempts.every((a) => new URL(a.url).host === hookHost) && perTask.length === count,
    `${count - perTask.length} tasks otherwise; ${JSON.stringify(tally(attempts, (a) => `${a.body.status} ${a.status ?? a.error}`))}`,
  );
  const runs = executions.map((e) => {
    const [item] = nodeOutput(e, 'Blended image');
    return {
      execution: e,
      taskId: waitingTaskId(e),
      item,
      process: nodeOutput(e, 'Which process')[0]?.json?.process,
    };
  });
  const resumedOnce = runs.filter(
    (r) => r.item?.json?.taskId === r.taskId && nodeOutput(r.execution, 'Which process').length === 1,
  );
  step.check(
    `${label}: each execution resumed once with its own task's result (none lost, none doubled)`,
    resumedOnce.length === count && new Set(runs.map((r) => r.item?.json?.taskId)).size === count,
    `${count - resumedOnce.length} differ`,
  );
  const hashes = await mapLimit(runs, 8, async (r) => {
    const id = r.item?.binary?.data?.id;
    if (!id || !r.item?.json?.resultUrl) return false;
    const [stored, served] = await Promise.all([
      client.binaryData(id).then((b) => b.bytes),
      fetch(r.item.json.resultUrl).then(async (res) => Buffer.from(await res.arrayBuffer())),
    ]);
    return sha256(stored) === sha256(served);
  });
  step.check(
    `${label}: every blended PNG read back through n8n matches the emulator's file (sha256)`,
    hashes.every(Boolean),
    `${hashes.filter((h) => !h).length} differ`,
  );
  const resumeMs = endedAt - releasedAt;
  return {
    workflowId: wf.id,
    executions,
    runs,
    byProcess: tally(runs, (r) => r.process),
    submittedMs,
    resumeMs,
    wallMs: submittedMs + resumeMs,
  };
}

/**
 * examples/n8n/blend-wait-fan-out.json as a user runs it (the editor's "Execute workflow": REST
 * POST /rest/workflows/<id>/run): Read images gives one item per image; Execute Workflow ("Run once
 * for each item", not waiting) starts one sub-execution each, which waits for its own blend. Checks
 * that each sub-execution waits, resumes once and succeeds.
 */
export async function blendWaitFanOut(ctx, { label, filesDir, images }) {
  const { step, client, emulator, credentialId } = ctx;
  const workflow = exampleWorkflow('blend-wait-fan-out.json', { filesDir, credentialId });
  const created = await client.createWorkflow({ ...workflow, name: `${label}: blend wait fan-out` });
  const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
  const requestsBefore = emulator.requests.length;
  emulator.setFault({ notifyHold: true });
  let parentId;
  let subs = [];
  try {
    const run = await client.rest('POST', `/workflows/${created.id}/run`, {
      triggerToStartFrom: { name: trigger.name },
    });
    parentId = String(run?.executionId ?? '');
    const parent = await client.waitForExecution(parentId, { timeoutMs: 60_000 });
    step.check(
      `${label}: the manual run of the example finished "success" (sub-executions not awaited)`,
      parent.status === 'success',
      `${parent.status} ${executionError(parent) ?? ''}`,
    );
    // The sub-executions carry the parent's workflow id (the sub-workflow is inline, not stored).
    await poll(
      async () => {
        subs = (await client.listExecutions({ workflowId: created.id })).filter((e) => String(e.id) !== parentId);
        if (subs.some((e) => FINAL_STATUSES.has(e.status))) {
          const first = await client.getExecution(subs.find((e) => FINAL_STATUSES.has(e.status)).id);
          throw Object.assign(new Error(`a sub-execution ended before waiting: ${executionError(first)}`), {
            fatal: true,
          });
        }
        return subs.length >= images.length && subs.every((e) => e.status === 'waiting');
      },
      {
        what: `${images.length} waiting sub-executions`,
        timeoutMs: 60_000,
        last: () => JSON.stringify(tally(subs, (e) => e.status)),
      },
    );
  } finally {
    emulator.setFault(undefined);
  }
  const waiting = await Promise.all(subs.map((e) => client.getExecution(e.id)));
  const submissions = emulator.requests.slice(requestsBefore).filter((r) => r.operation === 'blend');
  const taskIds = waiting.map((e) => waitingTaskId(e));
  const imageHashes = submissions.map((r) => r.images?.map((i) => i.sha256).join('+'));
  step.check(
    `${label}: ${images.length} images -> ${images.length} sub-executions waiting, one blend each (one image per blend), each for its own task`,
    waiting.length === images.length &&
      submissions.length === images.length &&
      sorted(submissions.map((r) => r.taskId)) === sorted(taskIds) &&
      sorted(imageHashes) === sorted(images.map((b) => sha256(b))),
    JSON.stringify({ waiting: waiting.length, submissions: submissions.length, taskIds }),
  );
  emulator.releaseNotifications(taskIds);
  await emulator.settled();
  const done = await Promise.all(waiting.map((e) => client.waitForExecution(e.id, { timeoutMs: 60_000 })));
  const all = (await client.listExecutions({ workflowId: created.id })).length;
  const ok = done.filter(
    (e) => e.status === 'success' && nodeOutput(e, 'Blended image')[0]?.json?.taskId === waitingTaskId(e),
  );
  step.check(
    `${label}: each sub-execution resumed once (final notification answered 200 once) and succeeded with its result`,
    ok.length === images.length &&
      taskIds.every((id) => isDeepEqual(attemptsOf(emulator, id), [['SUCCESS', 200]])) &&
      all === images.length + 1,
    JSON.stringify({
      statuses: tally(done, (e) => e.status),
      errors: done.map((e) => executionError(e)).filter(Boolean),
      executions: all,
    }),
  );
  return { parentId, executions: done };
}
