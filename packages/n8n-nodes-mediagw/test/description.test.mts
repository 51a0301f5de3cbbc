// What the UI offers is derived from (or pinned to) the core: every field of the core's schemas
// has a parameter, enum options are the core's lists, and the bounds and defaults written as
// literals (n8n's lint wants literals) match the core.
import {
  BOT_TYPES,
  blendOptionsSchema,
  DEFAULT_RETRY,
  DEFAULT_ROUTES,
  DIMENSIONS,
  imageToVideoFieldsSchema,
  textToVideoRequestSchema,
} from '@mediagw/core/protocol';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, type LoadedPackage, loadPackage, NODE_TYPE, TRIGGER_TYPE } from './harness.mts';

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

describe('the node', () => {
  it('is usable as a tool, shows the operation in its subtitle and needs the credential', () => {
    expect(node.usableAsTool).toBe(true);
    expect(node.subtitle).toContain('$parameter["operation"]');
    expect(node.credentials).toEqual([{ name: CREDENTIAL_TYPE, required: true }]);
    const trigger = (loaded.nodeTypes.getByName(TRIGGER_TYPE) as INodeType).description;
    expect(trigger.group).toEqual(['trigger']);
    expect(trigger.usableAsTool).toBeUndefined();
  });

  it.each([
    ['video', 'imageToVideo', Object.keys(imageToVideoFieldsSchema.shape)],
    ['video', 'textToVideo', Object.keys(textToVideoRequestSchema.shape)],
    ['image', 'blend', Object.keys(blendOptionsSchema.shape)],
  ])('%s/%s has a parameter for every field of the core schema', (resource, operation, fields) => {
    const parameters = parametersOf(resource, operation);
    expect(fields.filter((field) => !parameters.has(field))).toEqual([]);
  });

  it("offers the core's enum values", () => {
    const blend = parametersOf('image', 'blend');
    const values = (name: string) => (blend.get(name)!.options as { value: string }[]).map((o) => o.value);
    expect(values('botType')).toEqual([...BOT_TYPES]);
    expect(values('dimensions')).toEqual([...DIMENSIONS]);
    expect(BOT_TYPES).toContain(blend.get('botType')?.default);
    expect(DIMENSIONS).toContain(blend.get('dimensions')?.default);
  });

  it.each([
    ['num_inference_steps', 1],
    ['guidance_scale', 0.01],
  ])('bounds of %s match the core schema', (field, step) => {
    const { minValue, maxValue } = parametersOf('video', 'textToVideo').get(field)?.typeOptions ?? {};
    const accepts = (value: number) =>
      textToVideoRequestSchema.safeParse({ prompt: 'a lighthouse at night in a storm', [field]: value }).success;
    expect([accepts(minValue!), accepts(maxValue!)]).toEqual([true, true]);
    expect([accepts(minValue! - step), accepts(maxValue! + step)]).toEqual([false, false]);
  });

  it("writes the core's defaults", () => {
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
