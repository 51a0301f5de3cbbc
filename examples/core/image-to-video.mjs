// node examples/core/image-to-video.mjs [image]  — creates an image-to-video task (1.6, standard, 10 s).
import './node-24.mjs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@mediagw/core';
import { exampleDir, samplePng, withGateway } from './gateway.mjs';

const image = process.argv[2] ?? join(await exampleDir(), 'sample.png');
if (!process.argv[2]) await writeFile(image, samplePng());

await withGateway(async ({ baseUrl, apiKey }) => {
  const client = createClient({ baseUrl, apiKey });
  try {
    const task = await client.imageToVideo({
      input_image: image, // streamed from disk; the type comes from the bytes
      prompt: 'the colours slowly swirl',
      cfg: 0.5,
      aspect_ratio: '1:1',
    });
    console.log(
      JSON.stringify({ taskId: task.taskId, status: task.status, createdAt: task.createdAt, quota: task.quota }),
    );
  } finally {
    await client.close();
  }
});
