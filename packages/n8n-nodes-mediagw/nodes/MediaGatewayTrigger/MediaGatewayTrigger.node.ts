import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { createHash, timingSafeEqual } from 'crypto';
import { readNotification } from '@mediagw/core/protocol';
import { noRemoteRegistration } from '../shared/hooks';
import { notificationOptions, notificationRule } from '../shared/notification';
import { RecentKeys } from '../shared/recent';

/** Constant-time comparison of two texts of any length. */
function sameToken(given: string, expected: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text).digest();
	return timingSafeEqual(digest(given), digest(expected));
}

type ResponseObject = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Answers the call directly; no workflow run starts. */
function answer(response: ResponseObject, status: number, body: IDataObject): IWebhookResponseData {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/** Notifications already turned into runs, in this process (see RecentKeys). */
const delivered = new RecentKeys();

export class MediaGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Media Gateway Trigger',
		name: 'mediaGatewayTrigger',
		icon: { light: 'file:../../icons/mediagw.svg', dark: 'file:../../icons/mediagw.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '=Blend notifications',
		description: 'Starts the workflow when the media gateway calls a Blend notify hook',
		defaults: { name: 'Media Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// responseData '': without it n8n answers an accepted call with the literal text "firstEntryJson"
		// (its default for the setting); with it, n8n answers with the webhookResponse that webhook() returns.
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'mediagw' }],
		properties: [
			{
				displayName:
					'Put this trigger\'s Production URL, with "?token=" and your token, into the Notify Hook option of the Media Gateway node\'s Blend operation. The gateway does not document its notification body: the trigger passes on the JSON it receives as it is.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					'No token is set: anyone who learns this URL can start this workflow with a forged notification. Set a token (any long random text) and add "?token=" and it to the Notify Hook.',
				name: 'noTokenWarning',
				type: 'notice',
				default: '',
				displayOptions: { show: { token: [''] } },
			},
			{
				displayName: 'Token',
				name: 'token',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'Shared secret every call must carry as the "token" query parameter; other calls are refused with 401 and start nothing. Strongly recommended.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ignore Repeats Within (Minutes)',
						name: 'repeatWindowMinutes',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 60,
						description:
							'A notification with the same task ID and status as one received this recently starts no run (gateways deliver again when unsure). Counted per n8n process; 0 turns it off.',
					},
					{
						displayName: 'Max Body Size (KB)',
						name: 'maxBodyKb',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1024,
						description: 'Larger calls are refused with 413 and start nothing',
					},
					...notificationOptions.filter((o) => o.name === 'idField' || o.name === 'statusField'),
				],
			},
		],
	};

	/** Nothing to register anywhere (see shared/hooks.ts). */
	webhookMethods = noRemoteRegistration;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const token = this.getNodeParameter('token', '') as string;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (token) {
			const given = request.query?.token;
			if (typeof given !== 'string' || !sameToken(given, token)) {
				return answer(response, 401, { code: 401, message: 'Wrong or missing token' });
			}
		}
		const maxBytes = Math.max(1, Number(options.maxBodyKb ?? 1024)) * 1024;
		const body = this.getBodyData() as unknown;
		const size = Number(request.headers['content-length']) || JSON.stringify(body ?? '').length;
		if (size > maxBytes) return answer(response, 413, { code: 413, message: `The body is larger than ${maxBytes} bytes` });
		const contentType = String(request.headers['content-type'] ?? '');
		if (!/\bjson\b/i.test(contentType) || body === null || typeof body !== 'object') {
			return answer(response, 400, { code: 400, message: 'Expected a JSON body (Content-Type: application/json)' });
		}
		const json: IDataObject = Array.isArray(body) ? { body } : (body as IDataObject);
		const { taskId, status } = readNotification(json, notificationRule(options));
		const windowMs = Math.max(0, Number(options.repeatWindowMinutes ?? 60)) * 60_000;
		// Scoped to this trigger: its webhook id (stable across activations), else workflow and node.
		const node = this.getNode();
		const key = `${node.webhookId ?? `${this.getWorkflow().id}/${node.id}`}/${taskId}/${status}`;
		if (taskId !== undefined && windowMs > 0 && delivered.repeat(key, windowMs)) {
			// Acknowledged, so the gateway stops delivering it; no second run.
			return answer(response, 200, { code: 200, message: 'Already received; no new run started' });
		}
		return { workflowData: [[{ json }]], webhookResponse: { code: 200, message: 'Received; a run started' } };
	}
}
