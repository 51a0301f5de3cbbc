// What the UI offers is generated from the core's registry: every field of every operation has a
// parameter with the core's label, bounds and choices. (n8n's own lint checks the generated
// description too: scripts/lint-description.cjs, part of `npm run lint`.)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  camelCase,
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  type FieldSpec,
  labelOf,
  OPERATIONS,
  schemaOf,
} from '@mediagw/core/protocol';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, type LoadedPackage, loadPackage, NODE_TYPE, PACKAGE_DIR, TRIGGER_TYPE } from './harness.mts';

let loaded: LoadedPackage;
let node: INodeType['description'];

beforeAll(async () => {
  loaded = await loadPackage();
  node = (loaded.nodeTypes.getByName(NODE_TYPE) as INodeType).description;
});

/** Parameters shown for one operation, with the options of its collections flattened in. */
function parametersOf(resource: string, operation: string): Map<string, INodeProperties> {
  const found = new Map<string, INodeProperties>();
  for (const property of node.properties) {
    const show = property.displayOptions?.show;
    if (!show?.operation?.includes(operation) || !show.resource?.includes(resource)) continue;
    found.set(property.name, property);
    if (property.type === 'collection') {
      for (const option of property.options as INodeProperties[]) found.set(option.name, option);
    }
  }
  return found;
}

const fieldsOf = (op: (typeof OPERATIONS)[number]) => Object.entries(op.fields) as [string, FieldSpec][];

describe('the node', () => {
  it('is usable as a tool, shows the operation in its subtitle and needs the credential', () => {
    expect(node.usableAsTool).toBe(true);
    expect(node.subtitle).toContain('$parameter["operation"]');
    expect(node.credentials).toEqual([{ name: CREDENTIAL_TYPE, required: true }]);
    const trigger = (loaded.nodeTypes.getByName(TRIGGER_TYPE) as INodeType).description;
    expect(trigger.group).toEqual(['trigger']);
    expect(trigger.usableAsTool).toBeUndefined();
  });

  it('offers every operation of the registry under the resource of its media kind', () => {
    const pickers = node.properties.filter((p) => p.name === 'operation');
    const offered = pickers.flatMap((p) =>
      (p.options as { value: string }[]).map((o) => `${p.displayOptions?.show?.resource?.[0]}/${o.value}`),
    );
    expect(offered.sort()).toEqual(OPERATIONS.map((op) => `${op.kind}/${camelCase(op.name)}`).sort());
  });

  it.each(
    OPERATIONS.map((op) => [op.name, op] as const),
  )('%s: a parameter per field, labelled, with the core rules', (_, op) => {
    const parameters = parametersOf(op.kind, camelCase(op.name));
    for (const [name, spec] of fieldsOf(op)) {
      const parameter = parameters.get(name);
      expect(parameter, name).toBeDefined();
      expect(parameter?.displayName).toBe(labelOf(name, spec));
      const schema = schemaOf(spec);
      if (spec.kind === 'choice')
        expect((parameter?.options as { value: string }[]).map((o) => o.value)).toEqual([...spec.choices]);
      if (spec.kind === 'number' || spec.kind === 'integer') {
        const { minValue, maxValue } = parameter?.typeOptions ?? {};
        if (spec.min !== undefined)
          expect([schema.safeParse(minValue).success, schema.safeParse(minValue! - 0.01).success]).toEqual([
            true,
            false,
          ]);
        if (spec.max !== undefined)
          expect([schema.safeParse(maxValue).success, schema.safeParse(maxValue! + 0.01).success]).toEqual([
            true,
            false,
          ]);
      }
      // The pre-filled value of an option is one the core accepts.
      if (parameter?.default !== '') expect(schema.safeParse(parameter?.default).success, name).toBe(true);
    }
  });

  // n8n's nodes panel takes a node with the category "AI" but no AI subcategory for an AI sub-node
  // and leaves it out of the search (n8n-io/n8n#24630); the browser step (test/n8n-real/browser.sh)
  // found ours missing that way. These are the categories n8n's own nodes use for apps.
  it('files both nodes under categories the nodes panel lists (never "AI")', () => {
    const panelCategories = [
      'Analytics',
      'Communication',
      'Data & Storage',
      'Development',
      'Finance & Accounting',
      'Marketing',
      'Miscellaneous',
      'Productivity',
      'Sales',
      'Utility',
    ];
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    for (const file of manifest.n8n.nodes as string[]) {
      const codex = JSON.parse(readFileSync(join(PACKAGE_DIR, file.replace(/\.js$/, '.json')), 'utf8'));
      expect(codex.categories.length, file).toBeGreaterThan(0);
      for (const category of codex.categories) expect(panelCategories, `${file}: ${category}`).toContain(category);
    }
  });

  it("writes the core's defaults: the model route, retries, the credential's routes", () => {
    const textToVideo = parametersOf('video', 'textToVideo');
    expect(textToVideo.get('model')?.default).toBe(DEFAULT_ROUTES.textVideoModel);
    expect(textToVideo.get('retries')?.default).toBe(DEFAULT_RETRY.retries);
    const credential = loaded.credentialTypes[CREDENTIAL_TYPE]!;
    const defaults = Object.fromEntries(credential.properties.map((p) => [p.name, p.default]));
    expect(defaults).toMatchObject({
      videoVendor: DEFAULT_ROUTES.videoVendor,
      servicePrefix: DEFAULT_ROUTES.servicePrefix,
      imageRelaxPrefix: DEFAULT_ROUTES.imageRelaxPrefix,
      blendKeyHeader: DEFAULT_ROUTES.secretHeader,
    });
  });
});

describe('the notification rule', () => {
  it("the trigger's options default to the core's rule (which matches the emulator's notification)", async () => {
    const { DEFAULT_NOTIFICATION_RULE } = await import('@mediagw/core/protocol');
    const trigger = (loaded.nodeTypes.getByName(TRIGGER_TYPE) as INodeType).description;
    const options = trigger.properties.find((p) => p.name === 'options')?.options as INodeProperties[];
    const defaults = Object.fromEntries(options.map((o) => [o.name, o.default]));
    expect(defaults).toMatchObject({
      idField: DEFAULT_NOTIFICATION_RULE.idField,
      statusField: DEFAULT_NOTIFICATION_RULE.statusField,
    });
  });
});
