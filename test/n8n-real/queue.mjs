// Driver of the queue-mode step (see queue.sh): Redis and PostgreSQL from Debian's packages,
// n8n main + two workers + one webhook processor sharing DB, Redis, encryption key and the user
// folder with the installed package; the emulator in this process. Scenarios: 50 text-to-video
// executions fanned out over both workers with the videos stored in the database, the blend round
// trip, 50 Blend executions with Wait for Result resumed through the webhook processor, 500 trigger
// notifications (repeats mixed in) through the webhook processor, a worker SIGKILLed while
// executions wait (then replaced), and a worker SIGKILLed mid-run.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  baseEnv,
  blendRoundTrip,
  blendWaitFanOut,
  blendWaitMany,
  blendWaitWorkflow,
  CREDENTIAL_TYPE,
  checkKeyNowhere,
  deploy,
  emulatorTexts,
  freePort,
  installNode,
  mapLimit,
  N8N_REAL_DIR,
  N8nClient,
  NODE_TYPES,
  nodeOutput,
  packNode,
  poll,
  postJson,
  queueEnv,
  Reporter,
  repeatedDelivery,
  SAMPLE_VIDEO,
  Supervisor,
  seconds,
  sentinelKey,
  sha256,
  startGateway,
  startN8n,
  startPostgres,
  startRedis,
  takeOf,
  tally,
  textToVideoFanout,
  textToVideoWorkflow,
  triggerNotifications,
  waitingTaskId,
  writeExampleFiles,
} from './lib/index.mjs';

const step = new Reporter('n8n-queue');
const work = join(N8N_REAL_DIR, '.work/queue');
const KEY = sentinelKey('queue');
const VIDEOS = Number(process.env.MGW_VIDEOS ?? 50);
const NOTIFICATIONS = Number(process.env.MGW_QUEUE_NOTIFICATIONS ?? 500);
const CONCURRENCY = Number(process.env.MGW_WORKER_CONCURRENCY ?? 5);
const T2V_LATENCY_MS = Number(process.env.MGW_T2V_LATENCY_MS ?? 500);
/** Long enough that the killed worker has tasks in flight at the gateway. */
const FAULT_LATENCY_MS = Number(process.env.MGW_FAULT_LATENCY_MS ?? 8000);
const FAULT_EXECUTIONS = 3 * CONCURRENCY;
/** Notifications delivered ahead of finished executions at most (0: no limit, a plain burst). */
const MAX_BACKLOG = Number(process.env.MGW_TRIGGER_BACKLOG ?? 50) || Number.POSITIVE_INFINITY;
/** Blend executions with Wait for Result waiting at once. */
const WAITS = Number(process.env.MGW_WAITS ?? 50);
/** Trigger notifications delivered twice on purpose: every n-th (0: none). */
const REPEAT_EVERY = Number(process.env.MGW_REPEAT_EVERY ?? 10);
/**
 * Which scenarios to run (comma-separated; default all): t2v, roundtrip, fanout, waitmany, trigger,
 * waitkill, crash.
 */
const SCENARIOS = new Set(
  (process.env.MGW_SCENARIOS ?? 't2v,roundtrip,fanout,waitmany,trigger,waitkill,crash').split(','),
);
/**
 * Bull job locks, shorter than n8n's defaults (60 s lock, renewed every 10 s, stalled check every
 * 30 s) so that a dead worker's jobs are detected within ~20 s instead of ~90 s. The renewal stays
 * well inside the lock, so a busy but live worker keeps its jobs.
 */
const LOCKS = {
  QUEUE_WORKER_LOCK_DURATION: '15000',
  QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
  QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

await rm(work, { recursive: true, force: true });
const supervisor = new Supervisor(work);
const userFolder = join(work, 'user');
let emulator;
let client;
let postgres;
const executionTexts = {};
const workers = [];
const figures = {};

/** Execution ids a worker's log says it started ("Worker started execution <id> (job <n>)"). */
async function startedInLog(proc) {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  return new Set([...text.matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]));
}

/** How often a worker's log says it started each execution (a resumed execution is a new job). */
async function jobStarts(proc) {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  const counts = new Map();
  for (const [, id] of text.matchAll(/Worker started execution (\d+) \(job/g))
    counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Executions a worker started and has not finished, from its log (JSON lines). */
async function heldBy(proc) {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  const held = new Set();
  for (const [, what, id] of text.matchAll(/Worker (started|finished) execution (\d+) \(job/g)) {
    if (what === 'started') held.add(id);
    else held.delete(id);
  }
  return held;
}

const mib = (proc) => `${Math.round(proc.memory().peakMiB)} MiB`;

try {
  // The examples' images (blend/*.png), the only folder n8n's Read/Write Files may use here.
  const files = await writeExampleFiles(join(work, 'files'));
  const tarball = await packNode(work);
  const installed = await installNode(userFolder, tarball);
  step.check(
    `packed n8n-nodes-mediagw@${installed.version} installed into the shared $N8N_USER_FOLDER/.n8n/nodes`,
    true,
  );

  const redis = await startRedis(supervisor, { dir: join(work, 'redis') });
  step.check(`redis-server on 127.0.0.1:${redis.port}`, true);
  postgres = await startPostgres(supervisor, { dir: join(work, 'pg') });
  step.check(`${postgres.version} on 127.0.0.1:${postgres.port}`, true);

  emulator = await startGateway(KEY);
  // Every process gets the webhook processor's address: workers build resume URLs from it.
  const webhookPort = await freePort();
  const webhookBase = `http://127.0.0.1:${webhookPort}/`;
  const envFor = (name) =>
    baseEnv({
      userFolder,
      webhookUrl: webhookBase,
      logDir: supervisor.logDir,
      name,
      fileAccess: files.dir,
      extra: { ...queueEnv({ postgres, redis }), ...LOCKS },
    });

  const main = await startN8n(supervisor, { role: 'main', name: 'main', env: envFor('main') });
  step.check(`n8n main ready on ${main.url} (migrations done)`, true);
  const [worker1, worker2, webhook] = await Promise.all([
    startN8n(supervisor, { role: 'worker', name: 'worker-1', env: envFor('worker-1'), concurrency: CONCURRENCY }),
    startN8n(supervisor, { role: 'worker', name: 'worker-2', env: envFor('worker-2'), concurrency: CONCURRENCY }),
    startN8n(supervisor, { role: 'webhook', name: 'webhook', env: envFor('webhook'), port: webhookPort }),
  ]);
  workers.push(worker1, worker2);
  /** The worker the crash scenarios kill (worker-2, then its replacement); worker-1 survives both. */
  let victim = worker2;
  step.check(`two workers (--concurrency=${CONCURRENCY}) and a webhook processor ready`, true);
  for (const p of [main, worker1, worker2, webhook]) step.figure(`${p.name}: ready after`, seconds(p.readyMs));

  client = await N8nClient.bootstrap(main.url);
  step.check('owner set up, logged in, API key created (REST, on main)', true);
  const trigger = await client.nodeType(NODE_TYPES.trigger);
  const gateway = await client.nodeType(NODE_TYPES.gateway);
  step.check(
    'main loaded the Media Gateway node and trigger from the shared user folder',
    NODE_TYPES.trigger.endsWith(`.${trigger?.name}`) && NODE_TYPES.gateway.endsWith(`.${gateway?.name}`),
  );
  const settings = await client.rest('GET', '/settings');
  step.info(`n8n reports binaryDataMode "${settings.binaryDataMode}" (N8N_DEFAULT_BINARY_DATA_MODE unset)`);
  step.check(
    'binary data mode in queue mode is "database"',
    settings.binaryDataMode === 'database',
    settings.binaryDataMode,
  );
  const credentialId = await client.createCredential({
    name: 'Media Gateway (emulator)',
    type: CREDENTIAL_TYPE,
    data: { baseUrl: emulator.url, apiKey: KEY },
  });
  const ctx = {
    step,
    client,
    emulator,
    apiKey: KEY,
    webhookBase,
    credentialId,
    // Cheaper than listing executions over the API while pacing 500 notifications.
    finishedCount: async (workflowId) =>
      Number(
        (
          await postgres.query(
            `SELECT count(*) FROM execution_entity WHERE "workflowId" = '${String(workflowId).replace(/[^A-Za-z0-9]/g, '')}' AND status IN ('success', 'error', 'crashed', 'canceled')`,
          )
        )[0][0],
      ),
  };

  const stopSampling = supervisor.sampleMemory(1000);
  if (SCENARIOS.has('t2v'))
    await step.scenario('text to video x50', async () => {
      emulator.setFault({ latencyMs: T2V_LATENCY_MS });
      let result;
      try {
        result = await textToVideoFanout(ctx, { label: 'text to video', count: VIDEOS, binaryMode: 'database' });
      } finally {
        emulator.setFault(undefined);
      }
      executionTexts.t2v = JSON.stringify(result.executions);
      figures.queueWallMs = result.wallMs;
      step.info(`executions per process (from "Which process" in execution data): ${JSON.stringify(result.byProcess)}`);
      step.check(
        'text to video: executions ran on both workers (execution data)',
        result.byProcess['worker-1'] > 0 && result.byProcess['worker-2'] > 0 && !result.byProcess.main,
        JSON.stringify(result.byProcess),
      );
      // Cross-check with the workers' own logs.
      const logs = { 'worker-1': await startedInLog(worker1.proc), 'worker-2': await startedInLog(worker2.proc) };
      const agree = result.runs.filter((r) => logs[r.process]?.has(String(r.execution.id)));
      step.check(
        "text to video: each execution's process matches the worker log that started it",
        agree.length === VIDEOS,
        `${VIDEOS - agree.length} disagree`,
      );
      // Where n8n keeps the bytes: the binary_data table of the shared Postgres.
      const ids = result.runs.map((r) => String(r.binary?.id ?? '').replace(/^database:/, ''));
      const rows = await postgres.query(
        `SELECT "sourceType", "sourceId", encode(sha256(data), 'hex'), "fileSize" FROM binary_data WHERE "fileId" IN (${ids
          .map((id) => `'${id.replace(/[^0-9a-f-]/gi, '')}'`)
          .join(',')})`,
      );
      const expected = sha256(SAMPLE_VIDEO);
      const executionIds = new Set(result.runs.map((r) => String(r.execution.id)));
      step.check(
        `text to video: ${VIDEOS} rows in Postgres table binary_data, one per execution, bytes match (sha256)`,
        rows.length === VIDEOS &&
          rows.every(([type, source, hash]) => type === 'execution' && executionIds.has(source) && hash === expected),
        `${rows.length} rows; ${JSON.stringify(rows.slice(0, 2))}`,
      );
      step.figure(
        `queue mode: ${VIDEOS} text-to-video executions (gateway latency ${T2V_LATENCY_MS} ms, 2 workers x ${CONCURRENCY}), first POST to last end`,
        seconds(result.wallMs),
      );
      for (const p of [...workers, main, webhook]) step.figure(`${p.name}: peak RSS after text to video`, mib(p.proc));
    });

  if (SCENARIOS.has('roundtrip'))
    await step.scenario('blend round trip', async () => {
      const result = await blendRoundTrip(ctx, { label: 'blend round trip' });
      executionTexts.roundTrip = JSON.stringify(result);
    });

  if (SCENARIOS.has('fanout'))
    await step.scenario('blend wait fan-out', async () => {
      const result = await blendWaitFanOut(ctx, { label: 'fan-out', filesDir: files.dir, images: files.images });
      executionTexts.fanOut = JSON.stringify(result);
    });

  if (SCENARIOS.has('waitmany'))
    await step.scenario(`blend wait x${WAITS}`, async () => {
      const label = `blend wait x${WAITS}`;
      const result = await blendWaitMany(ctx, {
        label,
        count: WAITS,
        filesDir: files.dir,
        hookOwner: 'the webhook processor',
      });
      executionTexts.waitMany = JSON.stringify(result.executions);
      figures.blendWait = { count: WAITS, wallMs: result.wallMs };
      step.figure(
        `queue mode: ${WAITS} blends with Wait for Result (2 workers x ${CONCURRENCY}): first POST to last blend submitted ${seconds(result.submittedMs)}, release of the notifications to last end ${seconds(result.resumeMs)}, together`,
        seconds(result.wallMs),
      );
      // The resumed part ran on a worker ("Which process" after the result); main and the webhook
      // processor ran none of it.
      step.info(`${label}: resumed parts per process (execution data): ${JSON.stringify(result.byProcess)}`);
      step.check(
        `${label}: the resumed parts ran on the workers, both of them`,
        result.byProcess['worker-1'] > 0 &&
          result.byProcess['worker-2'] > 0 &&
          result.byProcess['worker-1'] + result.byProcess['worker-2'] === WAITS,
        JSON.stringify(result.byProcess),
      );
      // Each execution is two jobs: the first part up to the wait, and the resumed part.
      const starts = await Promise.all([worker1.proc, worker2.proc].map((p) => jobStarts(p)));
      const jobsOf = (e) => starts.reduce((n, byId) => n + (byId.get(String(e.id)) ?? 0), 0);
      const twice = result.executions.filter((e) => jobsOf(e) === 2);
      step.check(
        `${label}: each execution was started as a worker job exactly twice (its first part, then once resumed; worker logs)`,
        twice.length === WAITS,
        `${WAITS - twice.length} otherwise: ${JSON.stringify(tally(result.executions, jobsOf))}`,
      );
      const share = starts.map((byId) => result.executions.reduce((n, e) => n + (byId.get(String(e.id)) ?? 0), 0));
      step.info(
        `${label}: jobs per worker (first parts and resumed parts, worker logs): worker-1 ${share[0]}, worker-2 ${share[1]}`,
      );
    });

  if (SCENARIOS.has('trigger'))
    await step.scenario(`trigger x${NOTIFICATIONS}`, async () => {
      const result = await triggerNotifications(ctx, {
        label: 'trigger',
        count: NOTIFICATIONS,
        maxBacklog: MAX_BACKLOG,
        timeoutMs: 420_000,
        repeatEvery: REPEAT_EVERY,
      });
      executionTexts.trigger = JSON.stringify(result.executions);
      step.figure(
        `trigger: ${NOTIFICATIONS} notifications via the webhook processor (at most ${MAX_BACKLOG} ahead of the workers), first blend to last execution end`,
        seconds(result.wallMs),
      );
      step.info(
        `trigger: ${result.repeated} notifications were delivered twice; the trigger's repeat memory is per n8n process, and this step has one webhook processor, so every repeat met the memory of the first delivery. With several webhook processors behind a load balancer a repeat reaching another processor starts a second run.`,
      );
      // Which worker ran them, from the logs (the trigger workflow records no process).
      const logs = [await startedInLog(worker1.proc), await startedInLog(worker2.proc)];
      const perWorker = logs.map((set) => result.executions.filter((e) => set.has(String(e.id))).length);
      step.info(`trigger executions per worker (from worker logs): worker-1 ${perWorker[0]}, worker-2 ${perWorker[1]}`);
      const repeated = await repeatedDelivery(ctx, { label: 'trigger', ...result, attempt: result.attempts[0] });
      executionTexts.repeat = JSON.stringify(repeated);
      for (const p of [...workers, main, webhook]) {
        step.figure(`${p.name}: peak RSS after ${NOTIFICATIONS} notifications`, mib(p.proc));
      }
    });

  if (SCENARIOS.has('waitkill'))
    await step.scenario('worker killed while executions wait', async () => {
      const label = 'worker killed while waiting';
      const count = 2 * CONCURRENCY;
      const { workflow, path } = blendWaitWorkflow({
        name: 'queue: wait, kill',
        filesDir: files.dir,
        credentialId,
        processTag: true,
      });
      const wf = await deploy(ctx, workflow, path);
      const before = emulator.requests.length;
      emulator.setFault({ notifyHold: true });
      let waiting = [];
      try {
        await mapLimit(
          Array.from({ length: count }, (_, i) => i + 1),
          count,
          (n) => postJson(wf.url, { n }),
        );
        await poll(
          async () => {
            waiting = await client.listExecutions({ workflowId: wf.id, status: 'waiting' });
            return waiting.length === count;
          },
          { what: `${count} waiting executions`, timeoutMs: 120_000, last: () => `${waiting.length} waiting` },
        );
      } finally {
        emulator.setFault(undefined);
      }
      // Waiting, not running: the victim has finished every job it started (its log says so).
      await poll(async () => (await heldBy(victim.proc)).size === 0, {
        what: `${victim.name} to hold no execution`,
        timeoutMs: 30_000,
        last: async () => [...(await heldBy(victim.proc))].join(','),
      });
      const ids = waiting.map((e) => String(e.id));
      const firstParts = await startedInLog(victim.proc);
      const onVictim = ids.filter((id) => firstParts.has(id));
      step.check(
        `${label}: ${count} executions waiting, ${onVictim.length} of them started on ${victim.name}, which holds no running execution`,
        waiting.length === count && onVictim.length > 0,
        `${waiting.length} waiting, ${onVictim.length} started on ${victim.name}`,
      );
      const killedAt = Date.now();
      await victim.proc.crash();
      step.info(`${label}: SIGKILLed ${victim.name} (exit: ${victim.proc.exitSignal ?? victim.proc.exitCode})`);
      const stillWaiting = await client.listExecutions({ workflowId: wf.id, status: 'waiting' });
      step.check(
        `${label}: after the kill all ${count} executions still wait`,
        stillWaiting.length === count,
        `${stillWaiting.length} waiting`,
      );
      const taskIds = (await Promise.all(ids.map((id) => client.getExecution(id)))).map((e) => waitingTaskId(e));
      emulator.releaseNotifications(taskIds);
      await client.waitForExecutions(wf.id, count, { timeoutMs: 120_000 });
      await emulator.settled();
      step.figure(`${label}: kill to every execution final`, seconds(Date.now() - killedAt));
      const executions = await client.listExecutions({ workflowId: wf.id, includeData: true });
      executionTexts.waitKill = JSON.stringify(executions);
      const survivors = tally(executions, (e) => `${e.status} on ${nodeOutput(e, 'Which process')[0]?.json?.process}`);
      step.check(
        `${label}: every execution resumed (a new job) on the surviving worker-1 and succeeded, those first run on ${victim.name} too`,
        executions.length === count &&
          executions.every(
            (e) => e.status === 'success' && nodeOutput(e, 'Which process')[0]?.json?.process === 'worker-1',
          ),
        JSON.stringify(survivors),
      );
      const submissions = emulator.requests.slice(before).filter((r) => r.operation === 'blend');
      const finals = emulator.notifications.filter((a) => taskIds.includes(a.taskId));
      step.check(
        `${label}: no task submitted twice (emulator: ${submissions.length} blends for ${count} executions), each final notification answered 200 once`,
        submissions.length === count &&
          new Set(submissions.map((r) => r.taskId)).size === count &&
          finals.length === count &&
          finals.every((a) => a.status === 200),
        JSON.stringify({ submissions: submissions.length, finals: tally(finals, (a) => a.status ?? a.error) }),
      );
      // A fresh worker for the next scenario, which kills one again.
      const replacement = await startN8n(supervisor, {
        role: 'worker',
        name: 'worker-3',
        env: envFor('worker-3'),
        concurrency: CONCURRENCY,
      });
      workers.push(replacement);
      victim = replacement;
      step.info(`${label}: worker-3 started as a replacement (${seconds(replacement.readyMs)})`);
    });

  if (SCENARIOS.has('crash'))
    await step.scenario('worker crash', async () => {
      const { workflow, path } = textToVideoWorkflow({ name: 'queue: crash', credentialId });
      const wf = await deploy(ctx, workflow, path);
      const before = emulator.requests.length;
      const t2v = () => emulator.requests.slice(before).filter((r) => r.operation === 'text-to-video');
      // Answered or not: the emulator holds each request for FAULT_LATENCY_MS before its handler runs.
      const pending = () => t2v().filter((r) => r.status === undefined && !r.dropped).length;
      emulator.setFault({ latencyMs: FAULT_LATENCY_MS });
      try {
        await mapLimit(
          Array.from({ length: FAULT_EXECUTIONS }, (_, i) => i + 1),
          FAULT_EXECUTIONS,
          (n) => postJson(wf.url, { n }),
        );
        // Both workers full: 2 x CONCURRENCY tasks waiting at the gateway, CONCURRENCY from each.
        await poll(() => pending() === 2 * CONCURRENCY, {
          what: `${2 * CONCURRENCY} tasks in flight at the gateway`,
          timeoutMs: 60_000,
          intervalMs: 50,
          last: () => `${pending()} pending`,
        });
        const held = await heldBy(victim.proc);
        step.figure(`${victim.name}: peak RSS before the kill`, mib(victim.proc));
        const killedAt = Date.now();
        await victim.proc.crash();
        step.info(
          `SIGKILLed ${victim.name} holding ${held.size} execution(s) (${[...held].join(', ')}), ${pending()} task(s) in flight at the gateway`,
        );

        const done = await client.waitForExecutions(wf.id, FAULT_EXECUTIONS, { timeoutMs: 180_000 });
        step.figure('worker crash: kill to every execution final', seconds(Date.now() - killedAt));
        const executions = await client.listExecutions({ workflowId: wf.id, includeData: true });
        executionTexts.crash = JSON.stringify(executions);
        step.check(
          `worker crash: all ${FAULT_EXECUTIONS} executions reached a final status`,
          done.length === FAULT_EXECUTIONS,
          JSON.stringify(tally(executions, (e) => e.status)),
        );
        const ok = executions.filter((e) => e.status === 'success');
        const failed = executions.filter((e) => e.status !== 'success');
        step.info(`worker crash: statuses ${JSON.stringify(tally(executions, (e) => e.status))}`);
        const messages = tally(failed, (e) => {
          const error = e.data?.resultData?.error;
          return `status "${e.status}": ${error?.message ?? '(no error)'}`;
        });
        for (const [message, count] of Object.entries(messages)) step.info(`worker crash: ${count} x ${message}`);
        step.check(
          `worker crash: the ${FAULT_EXECUTIONS - CONCURRENCY} executions ${victim.name} did not hold succeeded, all on worker-1`,
          ok.length === FAULT_EXECUTIONS - CONCURRENCY &&
            ok.every((e) => nodeOutput(e, 'Which process')[0]?.json?.process === 'worker-1'),
          JSON.stringify(tally(ok, (e) => nodeOutput(e, 'Which process')[0]?.json?.process)),
        );
        step.check(
          `worker crash: exactly the executions ${victim.name} held did not succeed`,
          held.size === CONCURRENCY && failed.length === held.size && failed.every((e) => held.has(String(e.id))),
          `held ${[...held].join(',')}; not successful ${failed.map((e) => e.id).join(',')}`,
        );
        // The emulator reads a body only after its latency: the victim's requests lost their connection
        // first, so they are counted but carry no prompt. Every other submission names its take.
        const submissions = t2v();
        const takes = submissions.map((r) => takeOf(r.fields.prompt)?.n).filter((n) => n !== undefined);
        const okTakes = ok.map((e) => nodeOutput(e, 'Which process')[0]?.json?.n);
        const sorted = (list) => [...list].sort((a, b) => a - b).join(',');
        step.check(
          `worker crash: no gateway task was submitted twice (emulator: ${submissions.length} submissions for ${FAULT_EXECUTIONS} executions)`,
          submissions.length === FAULT_EXECUTIONS &&
            new Set(takes).size === takes.length &&
            sorted(takes) === sorted(okTakes) &&
            submissions.length - takes.length === failed.length,
          `takes submitted ${sorted(takes)}; takes that succeeded ${sorted(okTakes)}`,
        );
        step.info(
          `worker crash: the ${submissions.length - takes.length} submissions of ${victim.name} reached the gateway once each; their connection died with the worker (emulator status ${JSON.stringify(
            tally(
              submissions.filter((r) => takeOf(r.fields.prompt) === undefined),
              (r) => r.status ?? 'no answer',
            ),
          )})`,
        );
      } finally {
        emulator.setFault(undefined);
      }
    });
  step.figure('worker-1: peak RSS at the end', mib(worker1.proc));
  step.figure('main: peak RSS at the end', mib(main.proc));
  step.figure('webhook processor: peak RSS at the end', mib(webhook.proc));

  stopSampling();
  supervisor.writeMemoryCsv(join(work, 'memory.csv'));
  const all = await client.listExecutions({ includeData: true });
  executionTexts.all = JSON.stringify(all);
  step.info(`scanning ${all.length} executions with their data (every scenario's) for the key`);
} catch (error) {
  step.check('the step ran to the end', false, error?.stack ?? String(error));
} finally {
  await emulator?.close();
  await supervisor.stopAll();
}

// The single-server step writes its figure; compare when it ran first.
try {
  const server = JSON.parse(await readFile(join(N8N_REAL_DIR, '.work/server/figures.json'), 'utf8'));
  if (figures.queueWallMs && server.videos === VIDEOS) {
    step.figure(
      `${VIDEOS} text-to-video executions: queue mode ${seconds(figures.queueWallMs)} vs single server ${seconds(server.wallMs)}`,
      `${(figures.queueWallMs / server.wallMs).toFixed(2)}x`,
    );
  }
  if (figures.blendWait && server.blendWait?.count === figures.blendWait.count) {
    step.figure(
      `${WAITS} blends with Wait for Result (submit + resume): queue mode ${seconds(figures.blendWait.wallMs)} vs single server ${seconds(server.blendWait.wallMs)}`,
      `${(figures.blendWait.wallMs / server.blendWait.wallMs).toFixed(2)}x`,
    );
  }
} catch {
  // The server step did not run in this checkout: nothing to compare.
}
await writeFile(join(work, 'figures.json'), JSON.stringify(figures)).catch(() => undefined);

await checkKeyNowhere(step, KEY, {
  logDir: supervisor.logDir,
  texts: { ...executionTexts, ...emulatorTexts(emulator) },
});
step.summary();
