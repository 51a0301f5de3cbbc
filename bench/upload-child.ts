/**
 * One upload in a fresh process, reporting idle RSS and peak RSS while it runs.
 * argv: <ours|naive> <image-to-video|blend> <baseUrl> <file...>
 */
import { readFile } from 'node:fs/promises';
import { createClient } from '@mediagw/core';
import { FormData, request } from 'undici';

const [mode, operation, baseUrl, ...files] = process.argv.slice(2) as [string, string, string, ...string[]];
const KEY = 'bench-key';

async function naive() {
  if (operation === 'image-to-video') {
    const bytes = await readFile(files[0]!);
    const form = new FormData();
    form.append('input_image', new Blob([bytes], { type: 'image/png' }), 'image.png');
    const res = await request(`${baseUrl}/video_vendor/m2v_16_img2video_10s`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  } else {
    const uris = [];
    for (const file of files) uris.push(`data:image/png;base64,${(await readFile(file)).toString('base64')}`);
    const res = await request(`${baseUrl}/image_relax_prefix/submit/blend`, {
      method: 'POST',
      headers: { 'img-api-secret': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ base64Array: uris }),
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  }
}

async function ours() {
  const client = createClient({ baseUrl, apiKey: KEY });
  if (operation === 'image-to-video') await client.imageToVideo({ input_image: files[0]! });
  else await client.blend({ base64Array: files });
  await client.close();
}

// Load every module first so idle RSS includes them.
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 50));
const idle = process.memoryUsage.rss();
let peak = idle;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 2);
const started = performance.now();
await (mode === 'ours' ? ours() : naive());
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage.rss());
process.stdout.write(`${JSON.stringify({ idle, peak, growth: peak - idle, ms })}\n`);
