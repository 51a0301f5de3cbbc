/**
 * Figure 5: the Action's bundled dist/index.js doing one text-to-video call as a runner runs it
 * (fresh process, INPUT_* env, output files), against a bare `node` script making the same request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE, timed } from './processes.ts';
import { type Figure, summarize } from './stats.ts';

const bundle = fileURLToPath(new URL('../packages/github-action/dist/index.js', import.meta.url));
const PROMPT = 'a lighthouse in a storm at night, waves crashing on the rocks';

export async function actionStart(baseUrl: string, repeats: number): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagw-bench-action-'));
  try {
    const bare = join(dir, 'bare.mjs');
    await writeFile(
      bare,
      `const res = await fetch(${JSON.stringify(`${baseUrl}/service_prefix/submit/text_video_model`)}, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
  body: JSON.stringify({ prompt: ${JSON.stringify(PROMPT)} }),
});
const json = await res.json();
if (res.status !== 200) process.exit(1);
console.log(json.video.url);
`,
    );
    const actionEnv = async () => {
      const output = join(dir, 'output');
      const summary = join(dir, 'summary');
      await writeFile(output, '');
      await writeFile(summary, '');
      return {
        PATH: process.env.PATH ?? '',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_WORKSPACE: dir,
        RUNNER_TEMP: dir,
        INPUT_OPERATION: 'text-to-video',
        'INPUT_BASE-URL': baseUrl,
        'INPUT_API-KEY': 'bench-key',
        INPUT_PROMPT: PROMPT,
        // The defaults the runner injects from action.yml (route inputs have none: the action applies them).
        'INPUT_TIMEOUT-SECONDS': '900',
        INPUT_RETRIES: '2',
        'INPUT_ALLOW-PATHS-OUTSIDE-WORKSPACE': 'false',
      };
    };
    const ours: number[] = [];
    const base: number[] = [];
    for (let r = 0; r < repeats + 1; r++) {
      const a = (await timed(NODE, [bundle], await actionEnv())).ms;
      const b = (await timed(NODE, [bare], { PATH: process.env.PATH ?? '' })).ms;
      if (r === 0) continue; // first run warms the file cache
      ours.push(a);
      base.push(b);
    }
    const ratio = summarize(ours.map((t, i) => t / base[i]!));
    return [
      {
        name: 'action start: one text-to-video call, dist/index.js as a runner runs it',
        ours: `${summarize(ours).median.toFixed(0)} ms`,
        baseline: `${summarize(base).median.toFixed(0)} ms (bare node script, fetch)`,
        ratio,
        goal: '<= 1.50',
        met: ratio.median <= 1.5,
        unit: 'x time',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
