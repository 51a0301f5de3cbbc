/**
 * Figure 4: 200 text-to-video items through the n8n node in n8n's own engine (n8n-core
 * WorkflowExecute, the built package as n8n loads it), emulator latency 200 ms: the node's default
 * concurrency against concurrency 1.
 */
import { startEmulatorProcess } from './processes.ts';
import { type Figure, summarize } from './stats.ts';

const harness = '../packages/n8n-nodes-mediagw/test/harness.mts';

export async function n8nItems(items: number): Promise<Figure[]> {
  process.env.N8N_LOG_LEVEL = 'silent';
  const { Engine, loadPackage, outcomeOf, readWorkflow, withParameters } = (await import(
    harness
  )) as typeof import('../packages/n8n-nodes-mediagw/test/harness.mts');
  const emulator = await startEmulatorProcess({ fault: { latencyMs: 200 } });
  try {
    const engine = new Engine(await loadPackage());
    engine.credentials.set('gw', { baseUrl: emulator.url, apiKey: 'bench-key' });
    const prompts = Array.from({ length: items }, (_, i) => ({
      json: { prompt: `item ${i}: a paper boat on a rainy street` },
    }));
    const base = withParameters(readWorkflow('text-to-video.json'), 'Prompts', { items: prompts });
    const time = async (options: Record<string, unknown>) => {
      const workflow = withParameters(base, 'Media Gateway', { download: false, options });
      const started = performance.now();
      const run = await engine.run(workflow);
      const ms = performance.now() - started;
      const outcome = outcomeOf(run, 'Media Gateway');
      if (outcome.error || outcome.items.length !== items) throw new Error(`n8n run failed: ${outcome.error?.message}`);
      return ms;
    };
    await time({}); // warm the engine and connections
    const byDefault = [await time({}), await time({})];
    const sequential = [await time({ concurrency: 1 })];
    const d = summarize(byDefault);
    const s = summarize(sequential);
    return [
      {
        name: `n8n items: ${items} text-to-video items, 200 ms latency`,
        ours: `${(d.median / 1000).toFixed(2)} s (default concurrency)`,
        baseline: `${(s.median / 1000).toFixed(2)} s (concurrency 1)`,
        ratio: summarize(byDefault.map((t) => t / s.median)),
        goal: `<= 4 s at ${items === 200 ? '' : `${items} items scaled: `}default`,
        met: d.median <= 4000 * (items / 200),
        unit: 'x time',
      },
    ];
  } finally {
    await emulator.close();
  }
}
