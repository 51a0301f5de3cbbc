/** `mediagw text-to-video`: sends a prompt, waits for the finished video, optionally downloads it. */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type DownloadResult, textToVideoRequestSchema } from '@mediagw/core';
import { type OptionSpecs, UsageError } from '../args.js';
import { type Command, commonOptions } from '../command.js';
import { connectionOptions } from '../connection.js';
import { fieldFlags, fieldOptions, readFields } from '../fields.js';
import { textToVideoJson, textToVideoSummary } from '../results.js';
import { resultOptions, runOperation } from './operation.js';

const fields = fieldFlags(textToVideoRequestSchema);

const callOnly: OptionSpecs = {
  model: {
    type: 'string',
    value: 'SEGMENT',
    help: 'the model route segment for this call (overrides --text-video-model)',
  },
};
const outputOption: OptionSpecs = {
  output: { type: 'string', value: 'PATH', help: 'also download the video to this file' },
};

/** Refuses an --output that cannot be written before anything is sent (and paid for). */
async function checkOutputPath(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    throw new UsageError(`--output: ${path} is a directory; give a file path such as ${path}/video.mp4`);
  }
  // The nearest folder that exists must be writable (missing folders are created).
  let folder = dirname(path);
  while (!(await stat(folder).catch(() => undefined)) && dirname(folder) !== folder) folder = dirname(folder);
  await access(folder, constants.W_OK).catch(() => {
    throw new UsageError(`--output: cannot write in ${folder} (permission denied)`);
  });
}

export const textToVideoCommand: Command = {
  name: 'text-to-video',
  summary: 'make a video from a text prompt and print (or download) it',
  usage: '--prompt TEXT [--output PATH] [options]',
  description:
    'Sends the prompt and settings, waits until the gateway answers with the finished video, and prints its ' +
    'URL, type, size, seed and request id. With --output the video is downloaded too. A detailed prompt works best.',
  sections: [
    { title: 'Operation', options: { ...fieldOptions(fields), ...callOnly } },
    { title: 'Connection (flag or environment variable)', options: connectionOptions },
    { title: 'Output', options: { ...outputOption, ...resultOptions, ...commonOptions } },
  ],
  examples: [
    'mediagw text-to-video --prompt "a lighthouse on a cliff at dawn, waves crashing, slow aerial shot" --output lighthouse.mp4',
    'mediagw text-to-video --prompt "..." --num-inference-steps 30 --guidance-scale 7 --seed 196619188014358660 --json',
  ],
  callsGateway: true,
  async run(values, context) {
    const input = readFields(fields, values);
    const model = typeof values.model === 'string' ? values.model : undefined;
    const output = typeof values.output === 'string' ? resolve(values.output) : undefined;
    if (output) await checkOutputPath(output);
    return runOperation(values, context, this.name, async (client, options, connection) => {
      const result = await client.textToVideo(
        { ...(input as { prompt: string }), ...(model === undefined ? {} : { model }) },
        options,
      );
      let saved: DownloadResult | undefined;
      let error: unknown;
      if (output) {
        // The video exists (and was paid for) even if this fails: the result still prints where it is.
        saved = await client.download(result.videoUrl, output, { timeoutMs: connection.timeoutMs }).catch((e) => {
          error = e;
          return undefined;
        });
      }
      return {
        json: textToVideoJson(result, saved),
        summary: textToVideoSummary(result, saved),
        warnings: result.warnings,
        error,
      };
    });
  },
};
