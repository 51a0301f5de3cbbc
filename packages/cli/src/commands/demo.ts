/**
 * `mediagw demo`: the whole tour with no gateway, no key and no network. An embedded emulator on a
 * free loopback port; the three operations through the core client, as a user's code would call
 * them; the produced video and blended image downloaded next to the JSON answers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { blend, createClient, imageToVideo, stringifyExact, textToVideo } from '@mediagw/core';
import type { OptionSpecs } from '../args.js';
import { type Command, commonOptions } from '../command.js';
import { startReceiver } from '../demo/notify-receiver.js';
import { sampleImages } from '../demo/sample-images.js';
import { loadEmulator } from '../emulator-module.js';
import { jsonOf } from '../results.js';

/** The emulator accepts any non-empty key; this one only shows where a real key would go. */
const DEMO_KEY = 'demo-key';
/** Shows that seeds beyond 2^53 keep every digit. */
const DEMO_SEED = '196619188014358660';

const demoOptions: OptionSpecs = {
  out: { type: 'string', value: 'DIR', help: 'where to write the files (default demo-output/)' },
};

/** The JSON answers saved next to the files. */
const ANSWER = {
  imageToVideo: 'image-to-video.json',
  textToVideo: 'text-to-video.json',
  blend: 'blend.json',
  notification: 'blend-notification.json',
};

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => `  ${r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')}`.trimEnd());
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run all three operations against an embedded emulator and save what they made',
  usage: '[--out DIR]',
  description:
    'Starts an emulator on a free loopback port, runs image-to-video, text-to-video and blend through the ' +
    'client library (blend with a notifyHook), downloads the video and the blended image, and saves them ' +
    'with the JSON answers. Needs no key and no network.',
  sections: [{ title: 'Options', options: { ...demoOptions, ...commonOptions } }],
  examples: ['mediagw demo', 'mediagw demo --out /tmp/mediagw-demo'],
  callsGateway: false,
  async run(values, context) {
    const prog = context.out.prog;
    const outDir = resolve(typeof values.out === 'string' ? values.out : 'demo-output');
    const shown = (name: string) => relative(process.cwd(), join(outDir, name)) || '.';
    const save = (name: string, value: unknown) => writeFile(join(outDir, name), `${stringifyExact(value, 2)}\n`);
    await mkdir(outDir, { recursive: true });
    // Loaded on demand: the server stack is not needed by the gateway commands.
    const { startEmulator } = await loadEmulator('demo');

    const emulator = await startEmulator({ port: 0, host: '127.0.0.1' });
    const receiver = await startReceiver();
    const client = createClient({ baseUrl: emulator.url, apiKey: DEMO_KEY });
    const rows = [['operation', 'what happened', 'made']];
    try {
      const [sunset, waves] = sampleImages().map((image) => ({ ...image, path: join(outDir, image.name) }));
      await Promise.all([sunset!, waves!].map((image) => writeFile(image.path, image.bytes)));

      const i2v = await client.imageToVideo({
        input_image: sunset!.path,
        prompt: 'the sun sinks slowly into the sea while the clouds drift to the left',
        aspect_ratio: '16:9',
        cfg: 0.5,
      });
      await save(ANSWER.imageToVideo, jsonOf(imageToVideo, i2v));
      rows.push(['image-to-video', `task ${i2v.taskId} created (status ${i2v.status})`, shown(ANSWER.imageToVideo)]);

      const t2v = await client.textToVideo({
        prompt: 'a lighthouse on a rocky cliff at dawn, waves crashing below, slow aerial shot',
        num_inference_steps: 25,
        guidance_scale: 6,
        seed: DEMO_SEED,
      });
      // The demo writes into the same folder every run: replacing its own files is the point.
      const video = await client.download(t2v.videoUrl, join(outDir, 'video.mp4'), {
        expectedBytes: t2v.fileSize,
        overwrite: true,
      });
      await save(ANSWER.textToVideo, jsonOf(textToVideo, t2v, video));
      rows.push([
        'text-to-video',
        `${t2v.status}: ${t2v.contentType}, ${video.bytes} bytes, seed ${t2v.seed}`,
        shown('video.mp4'),
      ]);

      const blended = await client.blend({
        base64Array: [sunset!.path, waves!.path],
        notifyHook: receiver.url,
        state: 'mediagw-demo',
      });
      await save(ANSWER.blend, jsonOf(blend, blended));
      const notification = (await receiver.first(15_000)) as { imageUrl?: unknown };
      await save(ANSWER.notification, notification);
      if (typeof notification.imageUrl !== 'string') throw new Error('the blend notification carries no imageUrl');
      const image = await client.download(notification.imageUrl, join(outDir, 'blended.png'), { overwrite: true });
      rows.push([
        'blend',
        `task ${blended.taskId} accepted, notifyHook called: ${image.bytes}-byte image`,
        shown('blended.png'),
      ]);
    } finally {
      await client.close();
      await receiver.close();
      await emulator.close();
    }
    context.out.out(
      ...[
        `mediagw demo: a local emulator (${emulator.url}), no network, no key`,
        '',
        ...table(rows),
        '',
        `Also in ${shown('')}/: the JSON answers (${Object.values(ANSWER).join(', ')}) and the input images.`,
        // In the form the user runs: `npm run -s mediagw --` inside this repository, else `mediagw`.
        `Next: ${prog} emulator --port 8787 in one terminal, then the commands of`,
        `      ${prog} --help in another.`,
      ],
    );
    return 0;
  },
};
