/** How items are run: options every operation's collection offers, and how they are read. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { DEFAULT_RETRY, type RetryPolicy } from '@mediagw/core/protocol';

/**
 * Gateway latency dominates each item (text-to-video answers when the video is done), so items
 * overlap: 200 items at 200 ms take ~2.5 s instead of ~40 s (bench/n8n-items.ts). 16 also bounds
 * how many input images are in flight at once. Rate limits: 429 is retried; lower it if needed.
 */
export const DEFAULT_CONCURRENCY = 16;

/** Literal defaults, as n8n's lint wants them; a test pins them to DEFAULT_CONCURRENCY and DEFAULT_RETRY. */
export const runOptions: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 16,
		description:
			'How many items are sent to the gateway at the same time; output order is kept. Lower it if your account is rate limited.',
	},
	{
		displayName: 'Retries When Rate Limited',
		name: 'retries',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 2,
		description:
			'How often a request refused with 429 or 503 (or a refused connection) is sent again, after the wait the gateway asks for (Retry-After) or a short backoff. Other failures are never retried: the task may exist.',
	},
];

export interface RunSettings {
	concurrency: number;
	retry: RetryPolicy;
}

/** Read once per run (from the first item): how many at once, how many retries. */
export function readRunSettings(context: IExecuteFunctions): RunSettings {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const concurrency = Math.max(1, Math.floor(Number(options.concurrency ?? DEFAULT_CONCURRENCY)) || 1);
	const retries = Math.max(0, Math.floor(Number(options.retries ?? DEFAULT_RETRY.retries)) || 0);
	return { concurrency, retry: { ...DEFAULT_RETRY, retries } };
}
