/** The notification rule as n8n parameters (the trigger and Blend's Wait for Result read it the same way). */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { DEFAULT_NOTIFICATION_RULE, type NotificationRule, valueList } from '@mediagw/core/protocol';

/**
 * Options that say how a notification is read. Literal defaults (n8n's lint wants them); a test pins
 * them to the core's DEFAULT_NOTIFICATION_RULE, which matches the emulator's notification.
 */
export const notificationOptions: INodeProperties[] = [
	{
		displayName: 'Failure Values',
		name: 'failureValues',
		type: 'string',
		default: 'FAILURE, FAILED',
		description: 'Comma-separated states that mean the task failed',
	},
	{
		displayName: 'Reason Field',
		name: 'reasonField',
		type: 'string',
		default: 'failReason',
		description: 'Where a failed task\'s reason is in the notification (dots for nested fields)',
	},
	{
		displayName: 'Result URL Field',
		name: 'resultUrlField',
		type: 'string',
		default: 'imageUrl',
		description: 'Where the address of the result is in the notification (dots for nested fields)',
	},
	{
		displayName: 'Status Field',
		name: 'statusField',
		type: 'string',
		default: 'status',
		description: 'Where the task state is in the notification (dots for nested fields)',
	},
	{
		displayName: 'Success Values',
		name: 'successValues',
		type: 'string',
		default: 'SUCCESS',
		description: 'Comma-separated states that mean the task succeeded; other states (progress) are not final',
	},
	{
		displayName: 'Task ID Field',
		name: 'idField',
		type: 'string',
		default: 'id',
		description: 'Where the task ID is in the notification (dots for nested fields)',
	},
];

/** The rule from an options object (unset options keep the core's defaults). */
export function notificationRule(options: IDataObject): NotificationRule {
	const text = (name: string, fallback: string) =>
		typeof options[name] === 'string' && (options[name] as string).trim() ? (options[name] as string).trim() : fallback;
	const d = DEFAULT_NOTIFICATION_RULE;
	return {
		idField: text('idField', d.idField),
		statusField: text('statusField', d.statusField),
		successValues: valueList(text('successValues', d.successValues.join(', '))),
		failureValues: valueList(text('failureValues', d.failureValues.join(', '))),
		resultUrlField: text('resultUrlField', d.resultUrlField),
		reasonField: text('reasonField', d.reasonField),
	};
}
