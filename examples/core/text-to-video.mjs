// node examples/core/text-to-video.mjs  — a finished video, downloaded next to you.
import './node-24.mjs';
import { createClient } from '@mediagw/core';
import { OUTPUT, withGateway } from './gateway.mjs';

await withGateway(async ({ baseUrl, apiKey }) => {
  const client = createClient({ baseUrl, apiKey });
  try {
    const video = await client.textToVideo({
      prompt: 'a lighthouse on a cliff in a storm at night, waves crashing, cinematic lighting',
      num_inference_steps: 30,
      guidance_scale: 7.5,
      seed: '196619188014358660', // every digit is kept, also above 2^53
    });
    // The file is reserved before anything is fetched; overwrite: true replaces an earlier run's.
    const file = await client.download(video.videoUrl, `${OUTPUT}/text-to-video.mp4`, { overwrite: true });
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
