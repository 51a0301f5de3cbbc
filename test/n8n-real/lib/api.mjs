// n8n over HTTP: owner setup, login and an API key over the internal REST API, then the public
// API (/api/v1) for credentials, workflows and executions. The API key stays inside the client:
// it is never returned, printed or written anywhere.
import { poll } from './util.mjs';

export const OWNER = {
  email: 'owner@mediagw.test',
  firstName: 'CI',
  lastName: 'Owner',
  // 8-64 characters, a digit and a capital (n8n's rule). A local test instance only.
  password: 'Mediagw-ci-0wner',
};

/** Execution statuses after which nothing more happens (waiting, new and running are not). */
export const FINAL_STATUSES = new Set(['success', 'error', 'crashed', 'canceled']);

export class HttpError extends Error {
  constructor(method, url, status, body) {
    super(`${method} ${url} -> HTTP ${status}: ${String(body).slice(0, 500)}`);
    this.status = status;
    this.body = body;
  }
}

export class N8nClient {
  #apiKey;
  #cookie;

  /** @param {string} url the n8n main (or single) instance, e.g. http://127.0.0.1:5678 */
  constructor(url) {
    this.url = url.replace(/\/+$/, '');
  }

  /** Owner, login, an API key with every scope the instance offers. */
  static async bootstrap(url, owner = OWNER) {
    const client = new N8nClient(url);
    await client.rest('POST', '/owner/setup', owner);
    await client.login(owner);
    await client.createApiKey();
    return client;
  }

  async #fetch(method, path, { body, headers = {}, raw = false } = {}) {
    const url = `${this.url}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const setCookie = response.headers.getSetCookie?.() ?? [];
    const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
    if (auth) this.#cookie = auth;
    if (raw) {
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!response.ok) throw new HttpError(method, url, response.status, bytes.toString('utf8'));
      return { status: response.status, headers: response.headers, bytes };
    }
    const text = await response.text();
    if (!response.ok) throw new HttpError(method, url, response.status, text);
    return text === '' ? undefined : JSON.parse(text);
  }

  /** The internal REST API (`/rest/...`), with the owner's session cookie. Returns `data`. */
  async rest(method, path, body) {
    const json = await this.#fetch(method, `/rest${path}`, {
      body,
      headers: this.#cookie ? { cookie: this.#cookie } : {},
    });
    return json && typeof json === 'object' && 'data' in json ? json.data : json;
  }

  async login({ email, password } = OWNER) {
    await this.rest('POST', '/login', { emailOrLdapLoginId: email, password });
    if (!this.#cookie) throw new Error('login answered without an n8n-auth cookie');
  }

  async createApiKey(label = 'mediagw-ci') {
    const scopes = await this.rest('GET', '/api-keys/scopes');
    const created = await this.rest('POST', '/api-keys', { label, scopes, expiresAt: null });
    if (typeof created?.rawApiKey !== 'string') throw new Error('POST /rest/api-keys gave no rawApiKey');
    this.#apiKey = created.rawApiKey;
  }

  /** The public API (`/api/v1/...`) with X-N8N-API-KEY. */
  async api(method, path, body) {
    if (!this.#apiKey) throw new Error('no API key yet: call bootstrap() or createApiKey()');
    return this.#fetch(method, `/api/v1${path}`, { body, headers: { 'x-n8n-api-key': this.#apiKey } });
  }

  /** Credential of a type (the node's credential data as a plain object). Returns its id. */
  async createCredential({ name, type, data }) {
    const created = await this.api('POST', '/credentials', { name, type, data });
    return created.id;
  }

  /** Workflow JSON ({name, nodes, connections, settings}) -> the stored workflow (with id). */
  async createWorkflow(workflow) {
    const { name, nodes, connections, settings = { executionOrder: 'v1' } } = workflow;
    return this.api('POST', '/workflows', { name, nodes, connections, settings });
  }

  /** Publishes (activates) the current version. */
  async publish(id) {
    return this.api('POST', `/workflows/${id}/publish`, {});
  }

  /**
   * Waits until a production webhook answers on `webhookBase` (N8N_WEBHOOK_URL of the process
   * that should serve it: the instance, or a queue-mode webhook processor). n8n answers 404 "not
   * registered" until activation is done; for a POST-only webhook, a GET then says "not
   * registered for GET" instead: that is the sign it is live.
   */
  async waitForWebhook(webhookBase, path, { timeoutMs = 30_000 } = {}) {
    const url = `${webhookBase.replace(/\/+$/, '')}/webhook/${path}`;
    let last = '';
    await poll(
      async () => {
        const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(5000) });
        last = `${response.status} ${(await response.text()).slice(0, 200)}`;
        return /registered for GET|Did you mean to make a POST/i.test(last);
      },
      { what: `production webhook ${url}`, timeoutMs, intervalMs: 200, last: () => last },
    );
    return url;
  }

  /** Every execution matching the filters (follows nextCursor). */
  async listExecutions({ workflowId, status, includeData = false, limit = 250 } = {}) {
    const out = [];
    let cursor;
    do {
      const query = new URLSearchParams({ limit: String(limit), includeData: String(includeData) });
      if (workflowId) query.set('workflowId', String(workflowId));
      if (status) query.set('status', status);
      if (cursor) query.set('cursor', cursor);
      const page = await this.api('GET', `/executions?${query}`);
      out.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }

  async getExecution(id, { includeData = true } = {}) {
    return this.api('GET', `/executions/${id}?includeData=${includeData}`);
  }

  /**
   * Polls until `count` executions of the workflow have a final status (anything but new,
   * running, waiting), or `timeoutMs` passes. Returns them (without data).
   */
  async waitForExecutions(workflowId, count, { timeoutMs = 120_000, intervalMs = 500 } = {}) {
    let seen = [];
    await poll(
      async () => {
        seen = await this.listExecutions({ workflowId });
        return seen.filter((e) => FINAL_STATUSES.has(e.status)).length >= count;
      },
      {
        what: `${count} finished executions of workflow ${workflowId}`,
        timeoutMs,
        intervalMs,
        last: () => {
          const byStatus = {};
          for (const e of seen) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
          return JSON.stringify(byStatus);
        },
      },
    );
    return seen;
  }

  /**
   * Polls one execution until `accept(execution)` (default: a final status) holds; returns it
   * with its data. For a paused execution wait for `(e) => e.status === 'waiting'`.
   */
  async waitForExecution(
    id,
    { accept = (e) => FINAL_STATUSES.has(e.status), timeoutMs = 60_000, intervalMs = 250, what } = {},
  ) {
    let last;
    return poll(
      async () => {
        last = await this.getExecution(id, { includeData: true });
        return accept(last) ? last : false;
      },
      { what: what ?? `execution ${id}`, timeoutMs, intervalMs, last: () => last?.status },
    );
  }

  /** A node type's description as the instance loaded it (proves the package loaded). */
  async nodeType(name, version = 1) {
    const [description] = await this.rest('POST', '/node-types', { nodeInfos: [{ name, version }] });
    return description;
  }

  /** Bytes of a stored binary (id as in an item's binary data, e.g. "database:<uuid>"). */
  async binaryData(id) {
    const query = new URLSearchParams({ id, action: 'download' });
    const { bytes, headers } = await this.#fetch('GET', `/rest/binary-data?${query}`, {
      headers: { cookie: this.#cookie ?? '' },
      raw: true,
    });
    return { bytes, contentType: headers.get('content-type') };
  }
}

/** The output items of a node in an execution fetched with includeData (first run, output 0). */
export function nodeOutput(execution, nodeName, { run = 0, output = 0 } = {}) {
  return execution?.data?.resultData?.runData?.[nodeName]?.[run]?.data?.main?.[output] ?? [];
}

/** The task id a Wait-for-Result execution waits for: its custom data `mediagw_task_id`. */
export function waitingTaskId(execution) {
  return execution?.customData?.mediagw_task_id ?? execution?.data?.resultData?.metadata?.mediagw_task_id;
}

/** The execution's error message (and description), if it failed. */
export function executionError(execution) {
  const error = execution?.data?.resultData?.error;
  return error ? [error.message, error.description].filter(Boolean).join(': ') : undefined;
}
