// Driver of the browser step (see browser.sh): the node as builders meet it, in n8n's editor.
// `n8n start` (SQLite) with the packed node installed, the emulator in this process, the owner
// over REST; then Debian's Chromium (headless, playwright-core) logs in as that owner and checks
// the nodes panel, every operation's node panel, the trigger's panel, the credential dialog and
// its "Test", the examples, the icons in light and dark themes, and the console. Screenshots go
// to .work/browser/screenshots/ (docs/screenshots/ holds a chosen few, committed by hand).
//
// Expectations come from the node's generated description (the built dist/, the same code the
// packed tarball carries), so the check is "the editor shows what the description says"; a short
// list of what the READMEs promise is checked against the same screens.
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Editor, launchChromium, PageObserver } from './lib/browser.mjs';
import {
  baseEnv,
  CREDENTIAL_TYPE,
  checkKeyNowhere,
  freePort,
  installNode,
  N8N_REAL_DIR,
  N8nClient,
  NODE_TYPES,
  packNode,
  REPO_ROOT,
  Reporter,
  Supervisor,
  secretSightings,
  sentinelKey,
  startGateway,
  startN8n,
} from './lib/index.mjs';
import { poll } from './lib/util.mjs';

const step = new Reporter('n8n-browser');
const work = join(N8N_REAL_DIR, '.work/browser');
const shots = join(work, 'screenshots');
const KEY = sentinelKey('browser');
const WRONG_KEY = sentinelKey('browser-wrong');

// The generated descriptions, from the built package (what the packed tarball carries).
const requireDist = createRequire(join(REPO_ROOT, 'packages/n8n-nodes-mediagw/dist/'));
const { MediaGateway } = requireDist('./nodes/MediaGateway/MediaGateway.node.js');
const { MediaGatewayTrigger } = requireDist('./nodes/MediaGatewayTrigger/MediaGatewayTrigger.node.js');
const { MediaGatewayApi } = requireDist('./credentials/MediaGatewayApi.credentials.js');
const GATEWAY = new MediaGateway().description;
const TRIGGER = new MediaGatewayTrigger().description;
const CREDENTIAL = new MediaGatewayApi();
/** Operation value -> the title the operation pickers show ("textToVideo" -> "Text to Video"). */
const OPERATION_TITLES = Object.fromEntries(
  GATEWAY.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options.map((o) => [o.value, o.name])),
);

/**
 * What the READMEs (the node's and the root's) promise a builder sees, by operation: top-level
 * labels and the Options collection. Checked against the screen, on top of the description.
 */
const PROMISED = {
  imageToVideo: {
    labels: ['Input Binary Field', 'Prompt'],
    options: ['Aspect Ratio', 'CFG', 'Concurrency', 'Negative Prompt', 'Retries When Rate Limited'],
  },
  textToVideo: {
    labels: ['Prompt', 'Download Video', 'Put Output File in Field'],
    options: [
      'Concurrency',
      'Guidance Scale',
      'Model',
      'Negative Prompt',
      'Number of Inference Steps',
      'Retries When Rate Limited',
      'Seed',
    ],
  },
  blend: {
    labels: ['Images', 'Input Binary Fields', 'Wait for Result'],
    options: ['Bot Type', 'Concurrency', 'Dimensions', 'Notify Hook', 'Retries When Rate Limited', 'State'],
  },
};

// --- the description, read as n8n reads it -------------------------------------------------

/** n8n renders descriptions, hints and notices as HTML: compare with the text a user reads. */
const plain = (html) =>
  String(html)
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** n8n's displayOptions (show/hide, plain value lists: all this package uses) for given values. */
function displayed(property, values) {
  const { show = {}, hide = {} } = property.displayOptions ?? {};
  const current = (key) => values[key.replace(/^\//, '')];
  return (
    Object.entries(show).every(([key, allowed]) => allowed.includes(current(key))) &&
    !Object.entries(hide).some(([key, denied]) => denied.includes(current(key)))
  );
}

/**
 * The parameters a node panel shows for `values` (defaults filled in), in order, de-duplicated by
 * name as n8n does (the first displayed property of a name wins).
 */
function visibleParameters(description, values = {}) {
  const all = { ...values };
  const shown = [];
  const seen = new Set();
  // Defaults first (a later property may depend on an earlier one's default).
  for (const property of description.properties) {
    if (!(property.name in all) && displayed(property, all)) all[property.name] = property.default;
  }
  for (const property of description.properties) {
    if (seen.has(property.name) || !displayed(property, all)) continue;
    seen.add(property.name);
    shown.push(property);
  }
  return { shown, values: all };
}

/** The text a default value shows in the panel (input text, switch state, option name). */
function shownDefault(property, value = property.default) {
  if (property.type === 'boolean') return String(Boolean(value));
  if (property.type === 'options') return property.options.find((o) => o.value === value)?.name;
  return String(value ?? '');
}

/** Operations of the gateway node: {resource, resourceName, value, name, action}. */
function operations() {
  const resources = GATEWAY.properties.find((p) => p.name === 'resource').options;
  return GATEWAY.properties
    .filter((p) => p.name === 'operation')
    .flatMap((picker) => {
      const resource = picker.displayOptions.show.resource[0];
      const resourceName = resources.find((r) => r.value === resource).name;
      return picker.options.map((o) => ({ resource, resourceName, value: o.value, name: o.name, action: o.action }));
    });
}

// --- checks on one node panel ---------------------------------------------------------------

/**
 * Compares the panel with the description: every displayed parameter with its label and default
 * (notices by their text, collections by label), and nothing of ours missing. Returns the panel.
 */
async function checkPanel(editor, label, shown, values) {
  const panel = await editor.readParameters();
  const problems = [];
  for (const property of shown) {
    if (property.type === 'notice') {
      const want = plain(property.displayName);
      if (!Object.values(panel).some((p) => p.notice && p.text.includes(want)))
        problems.push(`notice "${want.slice(0, 40)}..." missing`);
      continue;
    }
    if (property.type === 'collection' || property.type === 'fixedCollection') {
      if (!panel[`label:${property.displayName}`]) problems.push(`collection "${property.displayName}" missing`);
      continue;
    }
    const seen = panel[property.name];
    if (!seen) {
      problems.push(`${property.name} ("${property.displayName}") missing`);
      continue;
    }
    if (seen.label !== property.displayName)
      problems.push(`${property.name}: label "${seen.label}", expected "${property.displayName}"`);
    const want = shownDefault(property, values[property.name]);
    if (seen.value !== want) problems.push(`${property.name}: shows "${seen.value}", expected "${want}"`);
    if (property.hint && !seen.text.includes(plain(property.hint))) problems.push(`${property.name}: hint missing`);
    if (property.typeOptions?.password && seen.type !== 'password')
      problems.push(`${property.name}: not a password field`);
  }
  const names = shown.map((p) =>
    p.type === 'notice' ? `notice "${plain(p.displayName).slice(0, 24)}..."` : p.displayName,
  );
  step.check(
    `${label}: the panel shows ${names.join(', ')} with the description's labels, defaults and hints`,
    problems.length === 0,
    problems.join('; '),
  );
  return panel;
}

/** Opens a collection's "Add Option" list and compares it with the description. */
async function checkCollection(editor, label, property) {
  const listed = await editor.collectionOptions(property.displayName);
  const want = property.options.map((o) => o.displayName);
  step.check(
    `${label}: "${property.displayName}" opens and lists ${want.join(', ')}`,
    JSON.stringify([...listed].sort()) === JSON.stringify([...want].sort()),
    `listed: ${listed.join(', ')}`,
  );
  return listed;
}

// --- the step ---------------------------------------------------------------------------------

await rm(work, { recursive: true, force: true });
const supervisor = new Supervisor(work);
const userFolder = join(work, 'user');
let emulator;
let browser;
let observer;
const editors = [];

try {
  const tarball = await packNode(work);
  const installed = await installNode(userFolder, tarball);
  step.check(`packed n8n-nodes-mediagw@${installed.version} installed into $N8N_USER_FOLDER/.n8n/nodes`, true);

  emulator = await startGateway(KEY);
  const port = await freePort();
  const n8n = await startN8n(supervisor, {
    role: 'single',
    name: 'n8n',
    port,
    env: baseEnv({ userFolder, webhookUrl: `http://127.0.0.1:${port}/`, logDir: supervisor.logDir, name: 'n8n' }),
  });
  const client = await N8nClient.bootstrap(n8n.url);
  step.check(`n8n start ready on ${n8n.url}; owner set up and logged in over REST`, true);
  const credentialId = await client.createCredential({
    name: 'Media Gateway (emulator)',
    type: CREDENTIAL_TYPE,
    data: { baseUrl: emulator.url, apiKey: KEY },
  });

  // The examples, as a user has them after import with the credential the README names.
  const examples = {};
  const exampleDir = join(REPO_ROOT, 'examples/n8n');
  for (const file of [
    'image-to-video.json',
    'text-to-video.json',
    'blend.json',
    'blend-wait.json',
    'blend-with-trigger.json',
    'blend-wait-fan-out.json',
  ]) {
    const workflow = JSON.parse(await readFile(join(exampleDir, file), 'utf8'));
    for (const node of workflow.nodes) {
      if (node.credentials?.[CREDENTIAL_TYPE])
        node.credentials[CREDENTIAL_TYPE] = { id: credentialId, name: 'Media Gateway (emulator)' };
    }
    const created = await client.createWorkflow(workflow);
    examples[file] = { id: created.id, workflow };
  }

  browser = await launchChromium();
  step.check(`Chromium ${browser.version()} (Debian's package) started headless through playwright-core`, true);
  observer = new PageObserver(n8n.url);
  const editor = await Editor.open({ browser, url: n8n.url, theme: 'light', observer });
  editors.push(editor);
  const ops = operations();
  const added = {};

  await step.scenario('nodes panel', async () => {
    await editor.newWorkflow();
    // n8n lists a node and its trigger as one app entry named after the node; the trigger's
    // display name is one of the entry's aliases.
    for (const query of [GATEWAY.displayName, TRIGGER.displayName]) {
      const found = await editor.searchNodes(query, { until: (names) => names.includes(GATEWAY.displayName) });
      const ok = step.check(
        `nodes panel: searching "${query}" finds "${GATEWAY.displayName}"`,
        found.includes(GATEWAY.displayName),
        `listed: ${found.join(', ') || 'nothing'}`,
      );
      if (!ok) throw new Error('nothing to add from the nodes panel (the next scenarios need its nodes)');
    }
    const triggers = await editor.openApp(GATEWAY.displayName);
    await editor.screenshot(shots, 'nodes-panel-trigger', { locators: [editor.byId('node-creator')] });
    await editor.addAction(triggers[0]);
    const title = await editor.nodeTitle();
    const nodes = await editor.canvasNodes();
    step.check(
      `nodes panel: the entry's trigger ("${triggers[0]}") adds a "${TRIGGER.displayName}" node`,
      title === TRIGGER.displayName && nodes.some((n) => n.type === NODE_TYPES.trigger),
      `panel "${title}", canvas ${JSON.stringify(nodes.map((n) => n.type))}`,
    );
  });

  await step.scenario('trigger panel', async () => {
    const { shown, values } = visibleParameters(TRIGGER, { token: '' });
    await checkPanel(editor, 'trigger', shown, values);
    const warning = TRIGGER.properties.find((p) => p.name === 'noTokenWarning');
    await editor.screenshot(shots, 'trigger');
    await editor.screenshot(shots, 'docs-trigger', { clip: () => editor.panelClip() });
    await checkCollection(
      editor,
      'trigger',
      TRIGGER.properties.find((p) => p.name === 'options'),
    );
    await editor.screenshot(shots, 'trigger-options');
    await editor.closeDropdown();
    await editor.byId('parameter-input-token').locator('input').fill('a-long-random-token-for-the-editor-test');
    const gone = await poll(
      async () => {
        const panel = await editor.readParameters();
        return !Object.values(panel).some((p) => p.notice && p.text.includes(plain(warning.displayName).slice(0, 40)));
      },
      { what: 'the token warning to go', timeoutMs: 10_000 },
    ).catch(() => false);
    step.check('trigger: the "no token" warning shows while the token is empty and goes once one is typed', gone);
    await editor.closeNode();
  });

  for (const op of ops) {
    await step.scenario(`operation ${op.name}`, async () => {
      const found = await editor.searchNodes(GATEWAY.displayName, {
        until: (names) => names.includes(GATEWAY.displayName),
      });
      if (!found.includes(GATEWAY.displayName)) throw new Error(`"${GATEWAY.displayName}" not in the nodes panel`);
      const actions = await editor.openApp(GATEWAY.displayName);
      step.check(
        `${op.name}: the nodes panel offers the action "${op.action}"`,
        actions.includes(op.action),
        `actions: ${actions.join(', ')}`,
      );
      await editor.addAction(op.action);
      added[op.value] = await editor.nodeTitle();
      const { shown, values } = visibleParameters(GATEWAY, { resource: op.resource, operation: op.value });
      const panel = await checkPanel(editor, op.name, shown, values);
      step.check(
        `${op.name}: Resource shows "${op.resourceName}", Operation "${op.name}"`,
        panel.resource?.value === op.resourceName && panel.operation?.value === op.name,
        `resource "${panel.resource?.value}", operation "${panel.operation?.value}"`,
      );
      await editor.screenshot(shots, `op-${op.value}`);
      const listed = await checkCollection(
        editor,
        op.name,
        shown.find((p) => p.name === 'options'),
      );
      await editor.screenshot(shots, `op-${op.value}-options`);
      if (op.value === 'textToVideo')
        await editor.screenshot(shots, 'docs-text-to-video', { clip: () => editor.panelClip() });
      await editor.closeDropdown();
      const promised = PROMISED[op.value];
      if (promised) {
        const labels = Object.values(panel).map((p) => p.label);
        const missing = [
          ...promised.labels.filter((l) => !labels.includes(l)),
          ...promised.options.filter((o) => !listed.includes(o)).map((o) => `Options -> ${o}`),
        ];
        step.check(
          `${op.name}: what the README promises is on screen`,
          missing.length === 0,
          `missing: ${missing.join(', ')}`,
        );
      } else step.skip(`${op.name}: what the README promises is on screen`, 'an operation the READMEs do not list yet');

      const waitSwitch = shown.find((p) => p.name === 'waitForResult');
      if (waitSwitch) {
        await editor.toggle('waitForResult');
        const after = visibleParameters(GATEWAY, { resource: op.resource, operation: op.value, waitForResult: true });
        const appeared = after.shown.filter((p) => !shown.some((q) => q.name === p.name));
        await poll(async () => Boolean((await editor.readParameters())[`label:${appeared[0]?.displayName}`]), {
          what: `${appeared.map((p) => p.displayName).join(', ')} after turning on ${waitSwitch.displayName}`,
          timeoutMs: 15_000,
        });
        await checkPanel(editor, `${op.name} with ${waitSwitch.displayName} on`, after.shown, after.values);
        for (const collection of appeared.filter((p) => p.type === 'collection')) {
          await checkCollection(editor, `${op.name} with ${waitSwitch.displayName} on`, collection);
          await editor.screenshot(shots, `op-${op.value}-wait-options`);
          await editor.closeDropdown();
        }
        await editor.screenshot(shots, `op-${op.value}-wait`);
        await editor.screenshot(shots, `docs-${op.value}-wait`, { clip: () => editor.panelClip() });
      }
      await editor.closeNode();

      // Required parameters left empty: n8n marks the node on the canvas and names them.
      const required = shown.filter((p) => p.required && p.default === '');
      if (required.length) {
        const tooltip = await editor.nodeIssues(added[op.value]);
        step.check(
          `${op.name}: the canvas marks ${required.map((p) => `"${p.displayName}"`).join(', ')} as required while empty`,
          required.every((p) => tooltip.includes(`Parameter "${p.displayName}" is required`)),
          tooltip,
        );
      }
    });
  }

  await step.scenario('credential dialog', async () => {
    if (!added.textToVideo) throw new Error('needs the Text to Video node that its operation scenario adds');
    await editor.openNode(added.textToVideo);
    // First the picture for the READMEs: Text to Video as a builder fills it in.
    const example = examples['text-to-video.json'].workflow.nodes.find((n) => n.type === NODE_TYPES.gateway);
    if (example) {
      await editor.byId('parameter-input-prompt').locator('textarea').fill(example.parameters.prompt);
      const options = GATEWAY.properties.find(
        (p) => p.name === 'options' && displayed(p, { resource: 'video', operation: 'textToVideo' }),
      );
      for (const name of Object.keys(example.parameters.options ?? {})) {
        const option = options.options.find((o) => o.name === name);
        if (option) await editor.addCollectionOption(options.displayName, option.displayName);
      }
      await editor.byId('node-parameters').click({ position: { x: 5, y: 5 } });
      await editor.screenshot(shots, 'docs-text-to-video', { clip: () => editor.panelClip() });
    }
    await editor.byId('node-credentials-select').click();
    await editor.byId('node-credentials-select-item-new').click();
    const dialog = editor.byId('credential-edit-dialog');
    await dialog.waitFor();
    const visible = CREDENTIAL.properties
      .filter((p) => displayed(p, { customizeRoutes: false }))
      .map((p) => p.displayName);
    const labels = (await dialog.getByTestId('credential-connection-parameter').allInnerTexts()).map((t) =>
      t
        .split('\n')[0]
        .replace(/\s*\*$/, '')
        .trim(),
    );
    step.check(
      `credential dialog: "${CREDENTIAL.displayName}" shows ${visible.join(', ')}`,
      visible.every((l) => labels.includes(l)),
      `shown: ${labels.join(', ')}`,
    );
    const keyInput = dialog.getByTestId('parameter-input-apiKey').locator('input');
    step.check(
      'credential dialog: the API Key field is a password field',
      (await keyInput.getAttribute('type')) === 'password',
    );
    await dialog.getByTestId('parameter-input-baseUrl').locator('input').fill(emulator.url);

    const tested = (status) =>
      editor.page.waitForResponse(
        async (r) =>
          r.url().endsWith('/rest/credentials/test') && (await r.json().catch(() => ({})))?.data?.status === status,
        { timeout: 60_000 },
      );
    // A wrong key: n8n saves the credential, runs the test, and shows the credential's rule.
    const refusal = CREDENTIAL.test.rules.find((r) => r.properties.value === 401).properties.message;
    await keyInput.fill(WRONG_KEY);
    let answer = tested('Error');
    await editor.byId('credential-save-button').click();
    const failed = await (await answer).json();
    await dialog.getByText('More details').click();
    const banner = await poll(
      async () => {
        const text = await dialog.locator('[data-test-id="node-credentials-config-container"]').innerText();
        return text.includes(refusal) ? text : false;
      },
      { what: 'the refusal in the dialog', timeoutMs: 15_000 },
    ).catch(() => '');
    step.check(
      `credential Test with a wrong key: the dialog says "${refusal}"`,
      failed.data.message === refusal && banner.includes(refusal),
      `test answered ${JSON.stringify(failed.data)}`,
    );
    const dialogBox = editor.page.locator('.el-dialog:has([data-test-id="credential-edit-dialog"])');
    await editor.dismissToasts();
    await editor.screenshot(shots, 'credential-refused', { locators: [dialogBox], pad: 0 });

    // The right key: the test passes, n8n closes the dialog; reopened, it tests again.
    await keyInput.fill(KEY);
    answer = tested('OK');
    await editor.byId('credential-save-button').click();
    const passed = await (await answer).json();
    await dialog.waitFor({ state: 'hidden' });
    answer = tested('OK');
    await editor.byId('credential-edit-button').click();
    await answer;
    const success = editor.byId('credentials-config-container-test-success');
    await success.waitFor();
    step.check(
      'credential Test against the emulator with the right key: "Connection tested successfully"',
      passed.data.status === 'OK' && /tested successfully/i.test(await success.innerText()),
      JSON.stringify(passed.data),
    );
    await editor.dismissToasts();
    await editor.screenshot(shots, 'docs-credential', { locators: [dialogBox], pad: 0 });

    // The saved key must not be readable back: not in the field, the page, storage or any answer.
    await observer.settle();
    const shownValue = await keyInput.inputValue();
    const pageText = await editor.page.evaluate(() => {
      const inputs = [...document.querySelectorAll('input, textarea')].map((e) => e.value).join('\n');
      const storage = [localStorage, sessionStorage]
        .flatMap((s) => Object.keys(s).map((k) => `${k}=${s.getItem(k)}`))
        .join('\n');
      return `${document.documentElement.outerHTML}\n${inputs}\n${storage}`;
    });
    const leaks = await secretSightings(KEY, {
      texts: {
        'the key field': shownValue,
        'the page (DOM, inputs, storage)': pageText,
        ...Object.fromEntries(observer.bodies.map(([url, body], i) => [`response ${i} ${url}`, body])),
      },
    });
    step.check(
      `credential dialog: the saved key is not readable back (field shows a placeholder; DOM, storage and ${observer.bodies.length} n8n responses clean)`,
      leaks.length === 0 && shownValue !== KEY,
      leaks.join(', '),
    );
    await editor.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await editor.closeNode();
  });

  await step.scenario('examples', async () => {
    for (const [file, { id, workflow }] of Object.entries(examples)) {
      await editor.openWorkflow(id, workflow.nodes.length);
      const nodes = await editor.canvasNodes();
      const withIssues = nodes.filter((n) => n.issues).map((n) => n.name);
      step.check(
        `example ${file} opens: ${workflow.nodes.length} nodes, none with a warning`,
        nodes.length === workflow.nodes.length && withIssues.length === 0,
        `canvas ${nodes.length} nodes; warnings on ${withIssues.join(', ')}`,
      );
      // The line under a gateway node's name is its operation's title, not n8n's raw values.
      const untitled = workflow.nodes
        .filter((n) => n.type === NODE_TYPES.gateway && n.parameters.operation)
        .filter((n) => {
          const shown = nodes.find((c) => c.name === n.name)?.text ?? '';
          return !shown.includes(OPERATION_TITLES[n.parameters.operation]);
        })
        .map((n) => `"${n.name}": ${nodes.find((c) => c.name === n.name)?.text}`);
      step.check(
        `example ${file}: each Media Gateway node's subtitle on the canvas is its operation's title`,
        untitled.length === 0,
        untitled.join('; '),
      );
      await editor.screenshot(shots, `example-${file.replace('.json', '')}`);
      for (const node of workflow.nodes.filter((n) => Object.values(NODE_TYPES).includes(n.type))) {
        const description = node.type === NODE_TYPES.gateway ? GATEWAY : TRIGGER;
        await editor.openNode(node.name);
        const { shown, values } = visibleParameters(description, node.parameters);
        const panel = await editor.readParameters();
        const wrong = shown
          .filter((p) => !['notice', 'collection'].includes(p.type) && p.name in node.parameters)
          .filter((p) => panel[p.name]?.value !== shownDefault(p, values[p.name]))
          .map((p) => `${p.displayName}: "${panel[p.name]?.value}"`);
        const warning = Object.values(panel).some((p) => p.notice && p.text.startsWith('No token is set'));
        step.check(
          `example ${file}: "${node.name}" shows the example's values${description === TRIGGER ? ' and no token warning' : ''}`,
          wrong.length === 0 && !(description === TRIGGER && node.parameters.token && warning),
          wrong.join('; ') || 'token warning shown',
        );
        await editor.closeNode();
      }
    }
  });

  await step.scenario('icons and themes', async () => {
    const types = await (await editor.context.request.get(`${n8n.url}/types/nodes.json`)).json();
    for (const type of Object.values(NODE_TYPES)) {
      const { iconUrl } = types.find((t) => t.name === type) ?? {};
      for (const theme of ['light', 'dark']) {
        const response = await editor.context.request.get(`${n8n.url}/${iconUrl?.[theme]}`);
        const body = await response.text();
        step.check(
          `icon (${theme}) of ${type} loads: HTTP ${response.status()}, ${response.headers()['content-type']}`,
          response.status() === 200 && /svg/.test(response.headers()['content-type'] ?? '') && body.includes('<svg'),
        );
      }
    }
    const sample = examples['text-to-video.json'];
    const gatewayIcon = types.find((t) => t.name === NODE_TYPES.gateway).iconUrl;
    for (const theme of ['light', 'dark']) {
      const themed = theme === 'light' ? editor : await Editor.open({ browser, url: n8n.url, theme, observer });
      if (themed !== editor) editors.push(themed);
      await themed.openWorkflow(sample.id, sample.workflow.nodes.length);
      const node = (await themed.canvasNodes()).find((n) => n.type === NODE_TYPES.gateway);
      const applied = await themed.page.evaluate(() => document.body.getAttribute('data-theme'));
      const ok = await poll(
        async () => {
          const icon = (await themed.canvasNodes()).find((n) => n.type === NODE_TYPES.gateway)?.icon;
          return icon?.complete && icon.width > 0 && icon.src.endsWith(gatewayIcon[theme]) ? icon : false;
        },
        { what: `the ${theme} icon rendered`, timeoutMs: 15_000 },
      ).catch(() => false);
      step.check(
        `${theme} theme: the canvas shows "${node?.name}" with the ${theme} icon (${gatewayIcon[theme].split('/').pop()}) rendered`,
        applied === theme && ok,
        `theme ${applied}, icon ${JSON.stringify(node?.icon)}`,
      );
      await themed.screenshot(shots, `canvas-${theme}`);
      await themed.openNode(node.name);
      const header = await themed.byId('ndv').locator('img').first().getAttribute('src');
      step.check(
        `${theme} theme: the node panel's header shows the ${theme} icon`,
        header?.endsWith(gatewayIcon[theme]),
        header,
      );
      await themed.screenshot(shots, `example-text-to-video-panel-${theme}`);
      await themed.closeNode();
    }
  });

  // Console errors and uncaught exceptions: ours fail; n8n's own are listed.
  await observer.settle();
  const ours = /mediagw|mediaGateway/i;
  const classified = observer.errors.map((e) => {
    const where = e.url ? ` (${e.url})` : '';
    let owner = 'ours';
    if (!ours.test(`${e.text} ${e.url}`)) owner = "n8n's";
    // n8n's editor asks the npm registry about an installed package (no internet here).
    else if (e.url && !e.url.startsWith(n8n.url)) owner = "n8n's (a lookup of the package elsewhere)";
    // n8n probes for optional static output schemas (`/schemas/<type>/<version>.json`).
    else if (e.url.startsWith(`${n8n.url}/schemas/`))
      owner = "n8n's (an optional output schema the package does not ship)";
    return { ...e, owner, line: `${e.kind} on ${e.page}: ${e.text.split('\n')[0].slice(0, 200)}${where}` };
  });
  const counts = {};
  for (const e of classified.filter((c) => c.owner !== 'ours'))
    counts[`${e.owner}: ${e.line}`] = (counts[`${e.owner}: ${e.line}`] ?? 0) + 1;
  for (const [line, count] of Object.entries(counts)) step.info(`console (not ours, ${count}x): ${line}`);
  const mine = classified.filter((c) => c.owner === 'ours');
  step.check(
    "no console errors or page errors from the node's code, icons or credential",
    mine.length === 0,
    mine.map((e) => e.line).join(' | '),
  );
  const iconFailures = observer.failedResponses.filter((r) => r.url.includes('/icons/n8n-nodes-mediagw/'));
  step.check("no failed requests for the package's icons", iconFailures.length === 0, JSON.stringify(iconFailures));
} catch (error) {
  step.check('the step ran to the end', false, error?.stack ?? String(error));
} finally {
  for (const editor of editors) await editor.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await emulator?.close();
  await supervisor.stopAll();
}

await checkKeyNowhere(step, KEY, { logDir: supervisor.logDir, texts: {}, what: 'n8n logs' });
step.info(`screenshots: ${shots}`);
step.summary();
