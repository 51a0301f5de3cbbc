/**
 * "Wait for Result", for operations that take a notify hook (Blend): the node puts this
 * execution's resume URL into the hook, pauses the execution, and resumes when the gateway
 * notifies that the task is done (webhook in MediaGateway.node.ts, behaviour in actions/wait.ts).
 */
import type { INodeProperties } from 'n8n-workflow';
import type { AnyOperation } from '@mediagw/core/protocol';
import { notificationOptions } from '../../shared/notification';

/** Literal defaults (n8n's lint wants them); readers fall back to the same values. */
export const WAIT_DEFAULTS = { timeLimitMinutes: 10, downloadResult: true, resultPropertyName: 'data' } as const;

export function waitParameters(op: AnyOperation): INodeProperties[] {
	if (!op.notifyField) return [];
	return [
		{
			displayName: 'Wait for Result',
			name: 'waitForResult',
			type: 'boolean',
			default: false,
			description:
				"Whether to pause the execution until the gateway notifies that the task is done, and output its result (the notify hook is set to this execution's resume URL). Takes one item; see the docs for many.",
		},
		{
			displayName: 'Wait Options',
			name: 'waitOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: { waitForResult: [true] } },
			options: (
				[
				{
					displayName: 'Download Result',
					name: 'downloadResult',
					type: 'boolean',
					default: true,
					description: 'Whether to download the result the notification names into the binary data of the output item',
				},
				...notificationOptions,
				{
					displayName: 'Put Result File in Field',
					name: 'resultPropertyName',
					type: 'string',
					default: 'data',
					description: 'The name of the output binary field to put the result in',
				},
				{
					displayName: 'Time Limit (Minutes)',
					name: 'timeLimitMinutes',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 10,
					description:
						'How long to wait for the final notification; then the execution goes on with an error item naming the task ID',
				},
				] as INodeProperties[]
			).sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	];
}
