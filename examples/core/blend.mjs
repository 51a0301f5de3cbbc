// node examples/core/blend.mjs [image ...]  — submits a blend; the task id keeps every digit.
import './node-24.mjs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, ValidationError } from '@mediagw/core';
import { exampleDir, samplePng, withGateway } from './gateway.mjs';

let images = process.argv.slice(2);
if (images.length === 0) {
  const dir = await exampleDir();
  images = [join(dir, 'blend-a.png'), join(dir, 'blend-b.png')];
  await writeFile(images[0], samplePng(64, 64, 1));
  await writeFile(images[1], samplePng(64, 64, 2));
}

await withGateway(async ({ baseUrl, apiKey }) => {
  const client = createClient({ baseUrl, apiKey });
  try {
    // Bad input is refused before anything is sent, naming the field and what is allowed:
    await client.blend({ base64Array: images, dimensions: 'square' }).catch((error) => {
      if (error instanceof ValidationError) console.error(`refused locally: ${error.message}`);
      else throw error;
    });
    const task = await client.blend({
      base64Array: images,
      dimensions: 'SQUARE',
      botType: 'MAIN_JOURNEY',
      state: 'example',
    });
    console.log(JSON.stringify({ taskId: task.taskId, code: task.status, description: task.description }));
  } finally {
    await client.close();
  }
});
