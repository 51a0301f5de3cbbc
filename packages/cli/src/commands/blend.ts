/** `mediagw blend`: sends several images (as data URIs, streamed) and prints the task id. */
import { blendOptionsSchema } from '@mediagw/core';
import { type Command, commonOptions } from '../command.js';
import { connectionOptions } from '../connection.js';
import { fieldFlags, fieldOptions, readFields } from '../fields.js';
import { blendJson, blendSummary } from '../results.js';
import { imageOption, resultOptions, runOperation } from './operation.js';

const fields = fieldFlags(blendOptionsSchema);

export const blendCommand: Command = {
  name: 'blend',
  summary: 'submit images to be blended into one, and print the task id',
  usage: '--image PATH --image PATH [...] [options]',
  description:
    'Sends the images and settings and prints the task id the gateway returned (exact digits, however long). ' +
    'With --notify-hook the gateway POSTs a notification to that address when the task is done.',
  sections: [
    {
      title: 'Operation',
      options: { ...imageOption('an image to blend; repeat for each image', true), ...fieldOptions(fields) },
    },
    { title: 'Connection (flag or environment variable)', options: connectionOptions },
    { title: 'Output', options: { ...resultOptions, ...commonOptions } },
  ],
  examples: [
    'mediagw blend --image a.png --image b.jpg',
    'mediagw blend --image a.png --image b.png --notify-hook https://example.com/hook --state order-42 --json',
  ],
  callsGateway: true,
  async run(values, context) {
    const images = (values.image as string[] | undefined) ?? [];
    const input = readFields(fields, values);
    return runOperation(values, context, this.name, async (client, options) => {
      const result = await client.blend({ ...input, base64Array: images }, options);
      return { json: blendJson(result), summary: blendSummary(result), warnings: result.warnings };
    });
  },
};
