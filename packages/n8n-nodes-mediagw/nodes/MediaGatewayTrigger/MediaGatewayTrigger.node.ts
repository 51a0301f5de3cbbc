import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { createHash, timingSafeEqual } from 'crypto';

/** Constant-time comparison of two texts of any length. */
function sameToken(given: string, expected: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text).digest();
	return timingSafeEqual(digest(given), digest(expected));
}

type ResponseObject = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Answers the call directly; no workflow run starts. */
function refuse(response: ResponseObject, status: number, message: string): IWebhookResponseData {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify({ code: status, message }));
	return { noWebhookResponse: true };
}

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
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'mediagw',
			},
		],
		properties: [
			{
				displayName:
					'Put this trigger\'s Production URL (with "?token=..." if you set a token) into the Notify Hook option of the Media Gateway node\'s Blend operation. The gateway does not document its notification body: the trigger passes on the JSON it receives as it is.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Token',
				name: 'token',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'Optional shared secret. When set, every call must carry it as the "token" query parameter; other calls are refused with 401 and start nothing.',
			},
		],
	};

	/** The gateway has no API to register a hook: its URL travels with each Blend request. */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const token = this.getNodeParameter('token', '') as string;
		if (token) {
			const given = request.query?.token;
			if (typeof given !== 'string' || !sameToken(given, token)) {
				return refuse(response, 401, 'Wrong or missing token');
			}
		}
		const contentType = String(request.headers['content-type'] ?? '');
		const body = this.getBodyData() as unknown;
		if (!/\bjson\b/i.test(contentType) || body === null || typeof body !== 'object') {
			return refuse(response, 400, 'Expected a JSON body (Content-Type: application/json)');
		}
		const json: IDataObject = Array.isArray(body) ? { body } : (body as IDataObject);
		return { workflowData: [[{ json }]] };
	}
}
