/** `mediagw image-to-video`: uploads one image (multipart) and prints the created task. */
import { type ImageInput, imageToVideo, imageToVideoFieldsSchema } from '@mediagw/core';
import { type Command, commonOptions } from '../command.js';
import { connectionOptions } from '../connection.js';
import { fieldFlags, fieldOptions, readFields } from '../fields.js';
import { imageToVideoJson, imageToVideoSummary } from '../results.js';
import { imageOption, resultOptions, runOperation } from './operation.js';

const fields = fieldFlags(imageToVideoFieldsSchema);

export const imageToVideoCommand: Command = {
  name: 'image-to-video',
  summary: 'create a video task from an image and a prompt',
  usage: '--image PATH [--prompt TEXT] [options]',
  description:
    'Uploads the image with the prompt and settings, and prints the task the gateway created ' +
    `(status ${imageToVideo.TASK_CREATED} = just created). The video itself is produced later by the gateway.`,
  sections: [
    {
      title: 'Operation',
      options: { ...imageOption('the source image (PNG, JPEG, ...)', false), ...fieldOptions(fields) },
    },
    { title: 'Connection (flag or environment variable)', options: connectionOptions },
    { title: 'Output', options: { ...resultOptions, ...commonOptions } },
  ],
  examples: [
    'mediagw image-to-video --image cat.png --prompt "the cat turns its head and blinks" --aspect-ratio 1:1',
    'mediagw image-to-video --image cat.png --cfg 0.5 --json | jq -r .taskId',
  ],
  callsGateway: true,
  async run(values, context) {
    const input = readFields(fields, values);
    return runOperation(values, context, this.name, async (client, options) => {
      const result = await client.imageToVideo({ ...input, input_image: values.image as ImageInput }, options);
      return { json: imageToVideoJson(result), summary: imageToVideoSummary(result), warnings: result.warnings };
    });
  },
};
