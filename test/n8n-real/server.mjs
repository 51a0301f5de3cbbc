// Driver of the single-server step (see server.sh): `n8n start` on loopback with SQLite, owner
// and API key over REST, the packed node installed as a community package, the emulator in this
// process; then over real HTTP: the trigger (with its repeat memory), the blend round trip, Blend
// with Wait for Result (examples/n8n/blend-wait.json: success, refusals, failure, time-out; the
// fan-out example; 50 at once) and 50 text-to-video executions.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  baseEnv,
  blendRoundTrip,
  blendWaitFanOut,
  blendWaitLifecycle,
  blendWaitMany,
  CREDENTIAL_TYPE,
  checkKeyNowhere,
  emulatorTexts,
  freePort,
  installNode,
  N8N_REAL_DIR,
  N8nClient,
  NODE_TYPES,
  packNode,
  Reporter,
  repeatedDelivery,
  Supervisor,
  seconds,
  sentinelKey,
  startBlendWaitTimeOut,
  startGateway,
  startN8n,
  textToVideoFanout,
  triggerNotifications,
  writeExampleFiles,
} from './lib/index.mjs';

const step = new Reporter('n8n-server');
const work = join(N8N_REAL_DIR, '.work/server');
const KEY = sentinelKey('server');
/** How many of each (env overrides for quick local runs). */
const NOTIFICATIONS = Number(process.env.MGW_SERVER_NOTIFICATIONS ?? 20);
const VIDEOS = Number(process.env.MGW_VIDEOS ?? 50);
/** Gateway latency for text to video (a real one answers when the video is done). */
const T2V_LATENCY_MS = Number(process.env.MGW_T2V_LATENCY_MS ?? 500);
/** Blend executions with Wait for Result waiting at once. */
const WAITS = Number(process.env.MGW_WAITS ?? 50);
/** Which scenarios to run (comma-separated; default all): trigger, roundtrip, wait, timeout, fanout, waitmany, t2v. */
const SCENARIOS = new Set(
  (process.env.MGW_SCENARIOS ?? 'trigger,roundtrip,wait,timeout,fanout,waitmany,t2v').split(','),
);

await rm(work, { recursive: true, force: true });
const supervisor = new Supervisor(work);
const userFolder = join(work, 'user');
let emulator;
let client;
const executionTexts = {};
const figures = {};

try {
  // The examples' images (blend/*.png), the only folder n8n's Read/Write Files may use here.
  const files = await writeExampleFiles(join(work, 'files'));
  const tarball = await packNode(work);
  const installed = await installNode(userFolder, tarball);
  step.check(`packed n8n-nodes-mediagw@${installed.version} installed into $N8N_USER_FOLDER/.n8n/nodes`, true);

  emulator = await startGateway(KEY);
  const port = await freePort();
  const webhookBase = `http://127.0.0.1:${port}/`;
  const n8n = await startN8n(supervisor, {
    role: 'single',
    name: 'n8n',
    port,
    env: baseEnv({
      userFolder,
      webhookUrl: webhookBase,
      logDir: supervisor.logDir,
      name: 'n8n',
      fileAccess: files.dir,
    }),
  });
  step.check(`n8n start ready on ${n8n.url} (SQLite)`, true);
  step.figure('n8n start: ready after', seconds(n8n.readyMs));

  client = await N8nClient.bootstrap(n8n.url);
  step.check('owner set up, logged in, API key created (REST)', true);
  const trigger = await client.nodeType(NODE_TYPES.trigger);
  const gateway = await client.nodeType(NODE_TYPES.gateway);
  step.check(
    'n8n loaded the Media Gateway node and trigger from the installed package',
    // n8n answers with the node's own name; the lookup by `<package>.<name>` found it.
    NODE_TYPES.trigger.endsWith(`.${trigger?.name}`) && NODE_TYPES.gateway.endsWith(`.${gateway?.name}`),
  );
  const credentialId = await client.createCredential({
    name: 'Media Gateway (emulator)',
    type: CREDENTIAL_TYPE,
    data: { baseUrl: emulator.url, apiKey: KEY },
  });
  step.check('credential created through the public API', typeof credentialId === 'string');

  const ctx = { step, client, emulator, apiKey: KEY, webhookBase, credentialId };

  // Started first, checked last: n8n's clock resumes it a minute later.
  let timeOut;
  if (SCENARIOS.has('timeout'))
    await step.scenario('blend wait: time-out started', async () => {
      timeOut = await startBlendWaitTimeOut(ctx, { label: 'blend wait', filesDir: files.dir });
    });

  if (SCENARIOS.has('trigger'))
    await step.scenario('trigger', async () => {
      const result = await triggerNotifications(ctx, { label: 'trigger', count: NOTIFICATIONS, repeatEvery: 10 });
      executionTexts.trigger = JSON.stringify(result.executions);
      step.figure(`trigger: ${NOTIFICATIONS} notifications, first blend to last execution end`, seconds(result.wallMs));
      const repeated = await repeatedDelivery(ctx, { label: 'trigger', ...result, attempt: result.attempts[0] });
      executionTexts.repeat = JSON.stringify(repeated);
    });

  if (SCENARIOS.has('roundtrip'))
    await step.scenario('blend round trip', async () => {
      const result = await blendRoundTrip(ctx, { label: 'blend round trip' });
      executionTexts.roundTrip = JSON.stringify(result);
    });

  if (SCENARIOS.has('wait'))
    await step.scenario('blend wait', async () => {
      const result = await blendWaitLifecycle(ctx, { label: 'blend wait', filesDir: files.dir, images: files.images });
      executionTexts.wait = JSON.stringify(result);
    });

  if (SCENARIOS.has('fanout'))
    await step.scenario('blend wait fan-out', async () => {
      const result = await blendWaitFanOut(ctx, { label: 'fan-out', filesDir: files.dir, images: files.images });
      executionTexts.fanOut = JSON.stringify(result);
    });

  if (SCENARIOS.has('waitmany'))
    await step.scenario(`blend wait x${WAITS}`, async () => {
      const result = await blendWaitMany(ctx, {
        label: `blend wait x${WAITS}`,
        count: WAITS,
        filesDir: files.dir,
      });
      executionTexts.waitMany = JSON.stringify(result.executions);
      figures.blendWait = {
        count: WAITS,
        wallMs: result.wallMs,
        submittedMs: result.submittedMs,
        resumeMs: result.resumeMs,
      };
      step.figure(
        `single server: ${WAITS} blends with Wait for Result: first POST to last blend submitted ${seconds(result.submittedMs)}, release of the notifications to last end ${seconds(result.resumeMs)}, together`,
        seconds(result.wallMs),
      );
    });

  if (SCENARIOS.has('t2v'))
    await step.scenario('text to video', async () => {
      emulator.setFault({ latencyMs: T2V_LATENCY_MS });
      try {
        const result = await textToVideoFanout(ctx, {
          label: 'text to video',
          count: VIDEOS,
          binaryMode: 'filesystem-v2',
        });
        executionTexts.t2v = JSON.stringify(result.executions);
        // For the queue step's comparison.
        figures.videos = VIDEOS;
        figures.wallMs = result.wallMs;
        step.figure(
          `single server: ${VIDEOS} text-to-video executions (gateway latency ${T2V_LATENCY_MS} ms), first POST to last end`,
          seconds(result.wallMs),
        );
      } finally {
        emulator.setFault(undefined);
      }
    });

  if (timeOut)
    await step.scenario('blend wait: time-out', async () => {
      const result = await timeOut.finish();
      executionTexts.timeOut = JSON.stringify(result);
    });
  step.figure('single server: peak RSS of n8n', `${Math.round(n8n.proc.memory().peakMiB)} MiB`);

  // Every execution of the instance, with data, as one more place the key must not be.
  const all = await client.listExecutions({ includeData: true });
  executionTexts.all = JSON.stringify(all);
  step.info(
    `scanning ${all.length} executions with their data (every scenario's, sub-executions included) for the key`,
  );
} catch (error) {
  step.check('the step ran to the end', false, error?.stack ?? String(error));
} finally {
  await emulator?.close();
  await supervisor.stopAll();
}
// For the queue step's comparisons.
await writeFile(join(work, 'figures.json'), JSON.stringify(figures)).catch(() => undefined);

await checkKeyNowhere(step, KEY, {
  logDir: supervisor.logDir,
  texts: { ...executionTexts, ...emulatorTexts(emulator) },
});
step.summary();
