// Driver of the single-server step (see server.sh): `n8n start` on loopback with SQLite, owner
// and API key over REST, the packed node installed as a community package, the emulator in this
// process; then the trigger and text-to-video scenarios over real HTTP.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  baseEnv,
  blendRoundTrip,
  CREDENTIAL_TYPE,
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
  secretSightings,
  sentinelKey,
  startGateway,
  startN8n,
  textToVideoFanout,
  triggerNotifications,
} from './lib/index.mjs';

const step = new Reporter('n8n-server');
const work = join(N8N_REAL_DIR, '.work/server');
const KEY = sentinelKey('server');
/** How many of each (env overrides for quick local runs). */
const NOTIFICATIONS = Number(process.env.MGW_SERVER_NOTIFICATIONS ?? 20);
const VIDEOS = Number(process.env.MGW_VIDEOS ?? 50);
/** Gateway latency for text to video (a real one answers when the video is done). */
const T2V_LATENCY_MS = Number(process.env.MGW_T2V_LATENCY_MS ?? 500);

await rm(work, { recursive: true, force: true });
const supervisor = new Supervisor(work);
const userFolder = join(work, 'user');
let emulator;
let client;
const executionTexts = {};

try {
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
    env: baseEnv({ userFolder, webhookUrl: webhookBase, logDir: supervisor.logDir, name: 'n8n' }),
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

  await step.scenario('trigger', async () => {
    const result = await triggerNotifications(ctx, { label: 'trigger', count: NOTIFICATIONS });
    executionTexts.trigger = JSON.stringify(result.executions);
    step.figure(`trigger: ${NOTIFICATIONS} notifications, first blend to last execution end`, seconds(result.wallMs));
    const repeated = await repeatedDelivery(ctx, { label: 'trigger', ...result, attempt: result.attempts[0] });
    executionTexts.repeat = JSON.stringify(repeated);
  });

  await step.scenario('blend round trip', async () => {
    const result = await blendRoundTrip(ctx, { label: 'blend round trip' });
    executionTexts.roundTrip = JSON.stringify(result);
  });

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
      await writeFile(join(work, 'figures.json'), JSON.stringify({ videos: VIDEOS, wallMs: result.wallMs }));
      step.figure(
        `single server: ${VIDEOS} text-to-video executions (gateway latency ${T2V_LATENCY_MS} ms), first POST to last end`,
        seconds(result.wallMs),
      );
      step.figure('single server: peak RSS of n8n', `${Math.round(n8n.proc.memory().peakMiB)} MiB`);
    } finally {
      emulator.setFault(undefined);
    }
  });

  // Every execution of the instance, with data, as one more place the key must not be.
  executionTexts.all = JSON.stringify(await client.listExecutions({ includeData: true }));
} catch (error) {
  step.check('the step ran to the end', false, error?.stack ?? String(error));
} finally {
  await emulator?.close();
  await supervisor.stopAll();
}

const sightings = await secretSightings(KEY, {
  dirs: [supervisor.logDir],
  texts: { ...executionTexts, 'emulator records': JSON.stringify(emulator?.requests ?? []) },
});
step.check('the API key never appears in n8n logs or execution data', sightings.length === 0, sightings.join(', '));
step.check(
  "the API key never appears in this step's output",
  !(await secretSightings(KEY, { texts: { output: step.printed.join('\n') } })).length,
);
step.summary();
