// n8n's editor in Debian's Chromium (headless), driven by playwright-core (no browser download:
// playwright-core ships none, and `executablePath` points at the system's). A separate module,
// not re-exported by index.mjs, so the other steps never load playwright-core.
//
// Selectors are n8n's own `data-test-id` attributes (the ones its end-to-end tests use); waits
// are Playwright's auto-waits and `poll` with deadlines, never fixed sleeps.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, selectors } from 'playwright-core';
import { OWNER } from './api.mjs';
import { poll } from './util.mjs';

/** Debian's `chromium` package (MGW_CHROMIUM overrides). */
export const CHROMIUM = process.env.MGW_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Flags for a closed network and a root user: without the background-networking ones Chromium
 * keeps opening connections the sandbox refuses. Playwright adds `--headless` and a fresh
 * temporary profile (`--user-data-dir`) per launch, removed on close.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Big enough for the node panel (NDV) and the credential dialog side by side with the canvas. */
export const VIEWPORT = { width: 1440, height: 900 };

export async function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  selectors.setTestIdAttribute('data-test-id');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return browser;
}

/**
 * What a page reported: console errors, uncaught exceptions, failed responses, and the bodies of
 * the n8n responses it received (to prove a secret never came back to the page). Shared by every
 * page of a step.
 */
export class PageObserver {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    /** {kind: 'console'|'pageerror', text, url, page} */
    this.errors = [];
    /** {url, status} of responses >= 400 */
    this.failedResponses = [];
    /** {url, status, contentType} of every response */
    this.responses = [];
    /** [url, body] of text responses from n8n itself */
    this.bodies = [];
    this.pending = new Set();
  }

  attach(page, label) {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      this.errors.push({ kind: 'console', text: message.text(), url: message.location()?.url ?? '', page: label });
    });
    page.on('pageerror', (error) => {
      this.errors.push({ kind: 'pageerror', text: `${error.message}\n${error.stack ?? ''}`, url: '', page: label });
    });
    page.on('response', (response) => {
      const url = response.url();
      const status = response.status();
      const contentType = response.headers()['content-type'] ?? '';
      this.responses.push({ url, status, contentType });
      if (status >= 400) this.failedResponses.push({ url, status });
      if (url.startsWith(this.baseUrl) && /json|text|javascript|svg/.test(contentType)) {
        const reading = response
          .text()
          .then((body) => this.bodies.push([url, body]))
          .catch(() => undefined)
          .finally(() => this.pending.delete(reading));
        this.pending.add(reading);
      }
    });
  }

  /** Waits for response bodies still being read. */
  async settle() {
    await Promise.all([...this.pending]);
  }
}

/**
 * One logged-in editor tab: its own browser context (cookies, localStorage), the n8n theme set
 * before the first page script runs, the owner logged in over `/rest/login` (the cookie lands in
 * the context).
 */
export class Editor {
  /** @param {{browser, url: string, theme?: 'light'|'dark', observer: PageObserver, label?: string, owner?: object}} options */
  static async open({ browser, url, theme = 'light', observer, label = theme, owner = OWNER }) {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: theme, deviceScaleFactor: 1 });
    context.setDefaultTimeout(30_000);
    await context.addInitScript((value) => window.localStorage.setItem('N8N_THEME', value), theme);
    const login = await context.request.post(`${url}/rest/login`, {
      data: { emailOrLdapLoginId: owner.email, password: owner.password },
    });
    if (!login.ok()) throw new Error(`POST /rest/login -> HTTP ${login.status()}`);
    const page = await context.newPage();
    observer.attach(page, label);
    return new Editor({ context, page, url, theme });
  }

  constructor({ context, page, url, theme }) {
    this.context = context;
    this.page = page;
    this.url = url;
    this.theme = theme;
  }

  byId(id) {
    return this.page.getByTestId(id);
  }

  async close() {
    await this.context.close();
  }

  /** A new, empty workflow (n8n creates and names it). */
  async newWorkflow() {
    await this.page.goto(`${this.url}/workflow/new`);
    await this.byId('canvas-add-button').waitFor();
  }

  /** Opens a stored workflow and waits until its `count` nodes are on the canvas. */
  async openWorkflow(id, count) {
    await this.page.goto(`${this.url}/workflow/${id}`);
    await poll(async () => (await this.byId('canvas-node').count()) >= count, {
      what: `${count} nodes on the canvas of workflow ${id}`,
      timeoutMs: 60_000,
    });
  }

  /**
   * Opens the nodes panel, types `query` and returns the names of the items it lists once the
   * search has applied: when `until(names)` holds, or n8n says "no results", or at the deadline
   * (then whatever is listed; the caller's check reports it).
   */
  async searchNodes(query, { until = () => false, timeoutMs = 15_000 } = {}) {
    if (!(await this.byId('node-creator-search-bar').isVisible())) await this.byId('node-creator-plus-button').click();
    await this.byId('node-creator-search-bar').fill(query);
    let names = [];
    await poll(
      async () => {
        names = (await this.byId('node-creator-item-name').filter({ visible: true }).allInnerTexts()).map((n) =>
          n.trim(),
        );
        return until(names) || (await this.byId('node-creator-no-results').isVisible());
      },
      { what: `nodes panel results for "${query}"`, timeoutMs },
    ).catch(() => undefined);
    return names;
  }

  /**
   * In the nodes panel: opens the app entry `appName` (n8n shows a node and its trigger as one
   * entry) and returns the names of its actions and triggers.
   */
  async openApp(appName) {
    await this.byId('node-creator-item-name')
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(appName)}\\s*$`) })
      .first()
      .click();
    // n8n slides the entry's view in over the results: wait until the results have slid out.
    const views = this.byId('node-creator').locator('aside');
    await poll(
      async () => (await views.count()) === 1 && (await views.getByTestId('node-creator-category-item').count()) > 0,
      {
        what: `the view of "${appName}" in the nodes panel`,
      },
    );
    return (await views.getByTestId('node-creator-item-name').filter({ visible: true }).allInnerTexts()).map((n) =>
      n.trim(),
    );
  }

  /** Clicks an action of the open app entry: n8n adds the node and opens its panel (NDV). */
  async addAction(actionName) {
    await this.byId('node-creator')
      .getByTestId('node-creator-item-name')
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(actionName)}\\s*$`) })
      .first()
      .click();
    await this.byId('node-parameters').waitFor();
  }

  /** Double-clicks a canvas node to open its panel. */
  async openNode(name) {
    await this.page.locator(`[data-test-id="canvas-node"][data-node-name="${cssString(name)}"]`).dblclick();
    await this.byId('node-parameters').waitFor();
  }

  async closeNode() {
    if (!(await this.byId('ndv-close-button').isVisible())) return;
    await this.byId('ndv-close-button').click();
    await this.byId('node-parameters').waitFor({ state: 'hidden' });
  }

  /** The node panel's title (the node's name). */
  async nodeTitle() {
    return (await this.byId('node-title-container').innerText()).trim();
  }

  /**
   * The node panel's parameters as the user sees them, by parameter name: label, the shown value
   * (text of an input, label of a selected option, 'true'/'false' of a switch), the input's type,
   * and the item's whole text (hints, notices). Notices have no name: keyed `notice:<n>`.
   */
  async readParameters() {
    return this.byId('node-parameters').evaluate((root) => {
      const out = {};
      let notices = 0;
      // Only the parameters tab (n8n renders the settings tab's items in the same container).
      for (const item of root.querySelectorAll('[data-test-id="parameter-item"]')) {
        if (item.offsetParent === null) continue;
        if (item.parentElement?.closest('[data-test-id="parameter-item"]')) continue; // inside a collection
        const input = [...item.querySelectorAll('[data-test-id^="parameter-input-"]')].find(
          (e) => !['parameter-input-field', 'parameter-input-hint'].includes(e.getAttribute('data-test-id')),
        );
        const text = (item.innerText ?? '').replace(/\s+/g, ' ').trim();
        if (!input) {
          const isNotice = item.querySelector('.n8n-notice, [class*="notice"]') !== null;
          if (isNotice) out[`notice:${notices++}`] = { notice: true, text };
          else {
            const label = item.querySelector('[data-test-id="input-label"] label')?.innerText.trim().split('\n')[0];
            if (label)
              out[`label:${label}`] = {
                label,
                text,
                collection: item.querySelector('[data-test-id="collection-parameter-add"]') !== null,
              };
          }
          continue;
        }
        const name = input.getAttribute('data-test-id').replace('parameter-input-', '');
        const label = (
          item.querySelector(`label[for="${name}"]`) ?? item.querySelector('[data-test-id="input-label"] label')
        )?.innerText
          .trim()
          .split('\n')[0];
        const field = input.querySelector('input, textarea');
        const toggle = input.querySelector('[role="switch"]');
        const value = toggle ? toggle.getAttribute('aria-checked') : (field?.value ?? '');
        out[name] = { name, label, value, type: toggle ? 'switch' : (field?.type ?? ''), text };
      }
      return out;
    });
  }

  /** The parameter item (a locator) whose label is `label` (top level of the node panel). */
  parameterItem(label) {
    return this.byId('node-parameters')
      .getByTestId('parameter-item')
      .filter({
        has: this.page.getByTestId('input-label').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\b`) }),
      })
      .first();
  }

  /** Opens the "Add Option" list of the collection labelled `label`; returns the options it lists. */
  async collectionOptions(label) {
    const item = this.parameterItem(label);
    await item.getByTestId('collection-parameter-add').first().click();
    return poll(
      async () => {
        const names = (await this.byId('collection-parameter-option').filter({ visible: true }).allInnerTexts())
          .map((n) => n.trim())
          .filter(Boolean);
        return names.length ? names : false;
      },
      { what: `the options of collection "${label}"` },
    );
  }

  /** Adds option `optionName` of the collection labelled `label` (the option's field appears). */
  async addCollectionOption(label, optionName) {
    await this.collectionOptions(label);
    await this.byId('collection-parameter-option')
      .filter({ visible: true })
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(optionName)}\\s*$`) })
      .click();
    await this.parameterItem(label)
      .getByTestId('parameter-item')
      .filter({ has: this.page.getByTestId('input-label').filter({ hasText: optionName }) })
      .first()
      .waitFor();
  }

  /** Closes an open dropdown (Escape) and waits until its options are gone. */
  async closeDropdown() {
    await this.page.keyboard.press('Escape');
    await poll(async () => (await this.byId('collection-parameter-option').filter({ visible: true }).count()) === 0, {
      what: 'the dropdown to close',
      timeoutMs: 10_000,
    });
  }

  /** Flips a boolean parameter (a switch) by its name. */
  async toggle(name) {
    await this.byId(`parameter-input-${name}`).locator('[role="switch"], .el-switch').first().click();
  }

  /** Canvas nodes: name, type, whether they show an issue marker, the icon's src and size. */
  async canvasNodes() {
    return this.page.$$eval('[data-test-id="canvas-node"]', (nodes) =>
      nodes.map((node) => {
        const img = node.querySelector('img');
        return {
          name: node.getAttribute('data-node-name'),
          type: node.getAttribute('data-node-type'),
          issues: node.querySelector('[data-test-id="node-issues"]') !== null,
          icon: img ? { src: img.getAttribute('src'), width: img.naturalWidth, complete: img.complete } : undefined,
          text: (node.innerText ?? '').replace(/\s+/g, ' ').trim(),
        };
      }),
    );
  }

  /** The issues tooltip of a canvas node (hovered). */
  async nodeIssues(name) {
    const node = this.page.locator(`[data-test-id="canvas-node"][data-node-name="${cssString(name)}"]`);
    await node.getByTestId('node-issues').hover();
    return poll(
      async () => {
        const texts = await this.page.locator('[role="tooltip"], [data-side]').allInnerTexts();
        const found = texts.map((t) => t.replace(/\s+/g, ' ').trim()).find((t) => /^Issues/.test(t));
        return found ?? false;
      },
      { what: `the issues tooltip of "${name}"`, timeoutMs: 10_000 },
    );
  }

  /** Closes n8n's toasts ("Credential saved", ...) so they do not cover a screenshot. */
  async dismissToasts() {
    const close = this.page.locator('.el-notification .el-notification__closeBtn').filter({ visible: true });
    for (let i = await close.count(); i > 0; i--)
      await close
        .first()
        .click()
        .catch(() => undefined);
    await poll(async () => (await this.page.locator('.el-notification').filter({ visible: true }).count()) === 0, {
      what: 'the toasts to close',
      timeoutMs: 10_000,
    }).catch(() => undefined);
  }

  /** Waits until no finite CSS transition or animation runs (dialogs sliding in, dropdowns). */
  async settle() {
    await poll(
      () =>
        this.page.evaluate(
          () =>
            document
              .getAnimations()
              .filter(
                (a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
              ).length === 0,
        ),
      { what: 'animations to end', timeoutMs: 10_000, intervalMs: 100 },
    ).catch(() => undefined);
  }

  /**
   * The node panel's parameter column as a clip: its width, from the tabs down to the last
   * parameter shown (or the bottom of an open "Add Option" list), not the empty space below.
   */
  async panelClip({ pad = 8 } = {}) {
    const column = await this.byId('node-parameters').boundingBox();
    const tabs = await this.byId('tab-params').boundingBox();
    // The lowest edge of any parameter shown (a collection's includes its "Add Option" button).
    const bottoms = await this.byId('node-parameters').evaluate((root) =>
      [...root.querySelectorAll('[data-test-id="parameter-item"]')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => e.getBoundingClientRect().bottom),
    );
    const list = this.byId('collection-parameter-option').filter({ visible: true }).last();
    if (await list.count()) {
      const box = await list.boundingBox();
      if (box) bottoms.push(box.y + box.height);
    }
    const y = Math.max(0, tabs.y - pad);
    const bottom = Math.min(
      VIEWPORT.height,
      column.y + column.height,
      Math.max(...bottoms, tabs.y + tabs.height) + pad,
    );
    return { x: Math.max(0, column.x - pad), y, width: column.width + 2 * pad, height: bottom - y };
  }

  /**
   * A PNG of the page, of a `clip` (or a function giving one once animations are over), or of
   * the region around `locators` (their union, padded, inside the viewport), into `dir`.
   * Returns the file path.
   */
  async screenshot(dir, name, { locators = [], pad = 8, clip: given } = {}) {
    await mkdir(dir, { recursive: true });
    await this.settle();
    const path = join(dir, `${name}.png`);
    let clip = typeof given === 'function' ? await given() : given;
    if (!clip && locators.length) {
      const boxes = (await Promise.all(locators.map((l) => l.first().boundingBox()))).filter(Boolean);
      if (boxes.length) {
        const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
        const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
        const right = Math.min(VIEWPORT.width, Math.max(...boxes.map((b) => b.x + b.width)) + pad);
        const bottom = Math.min(VIEWPORT.height, Math.max(...boxes.map((b) => b.y + b.height)) + pad);
        clip = { x, y, width: right - x, height: bottom - y };
      }
    }
    await this.page.screenshot({ path, clip, animations: 'disabled', caret: 'hide' });
    return path;
  }
}

export const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cssString = (text) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
