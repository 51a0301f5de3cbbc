// node examples/core/text-to-video.mjs  — a finished video, downloaded into a temporary folder (its path is printed).
import './node-24.mjs';
import { join } from 'node:path';
import { createClient } from '@mediagw/core';
import { exampleDir, withGateway } from './gateway.mjs';

await withGateway(async ({ baseUrl, apiKey }) => {
  const client = createClient({ baseUrl, apiKey });
  try {
    const video = await client.textToVideo({
      prompt: 'a lighthouse on a cliff in a storm at night, waves crashing, cinematic lighting',
      num_inference_steps: 30,
      guidance_scale: 7.5,
      seed: '196619188014358660', // every digit is kept, also above 2^53
    });
    const file = await client.download(video.videoUrl, join(await exampleDir(), 'text-to-video.mp4'));
    console.log(
      JSON.stringify({
        status: video.status,
        seed: video.seed,
        videoUrl: video.videoUrl,
        saved: file.path,
        bytes: file.bytes,
      }),
    );
  } finally {
    await client.close();
  }
});
