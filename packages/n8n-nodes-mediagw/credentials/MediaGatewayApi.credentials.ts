import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { DEFAULT_ROUTES } from '@mediagw/core/protocol';
import {
	blendPath,
	type MediaGatewayCredentials,
	routesOf,
} from '../nodes/MediaGateway/helpers/settings';

const customOnly = { show: { customizeRoutes: [true] } };

/** Answers to the credential test that mean the key (or the address) is not usable. */
const REFUSED_KEY_STATUSES = new Map<number, string>([
	[401, 'The gateway refused the API key (HTTP 401)'],
	[403, 'The gateway knows the key but forbids it (HTTP 403): check the account'],
	[404, 'Nothing answers at this address (HTTP 404): check the base URL and the service prefix'],
]);

/** The request's path, whether it came as one absolute URL or as baseURL + url (the credential test). */
function pathOf(request: IHttpRequestOptions): string | undefined {
	try {
		return new URL(request.baseURL ? `${request.baseURL.replace(/\/+$/, '')}${request.url}` : request.url).pathname;
	} catch {
		// Not a URL we can read: fall back to the Bearer style.
		return undefined;
	}
}

export class MediaGatewayApi implements ICredentialType {
	name = 'mediaGatewayApi';

	displayName = 'Media Gateway API';

	icon: Icon = { light: 'file:../icons/mediagw.svg', dark: 'file:../icons/mediagw.dark.svg' };

	documentationUrl = 'https://github.com/mediagw/mediagw/tree/main/packages/n8n-nodes-mediagw#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://gateway.example.com',
			description: 'Address of the gateway; may include a path prefix',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Sent as "Authorization: Bearer <key>" for the video operations and as the bare key in the secret header for Blend',
		},
		{
			displayName: 'Customize Routes',
			name: 'customizeRoutes',
			type: 'boolean',
			default: false,
			description: 'Whether to change the vendor-specific path segments and the secret header name',
		},
		{
			displayName: 'Video Vendor Segment',
			name: 'videoVendor',
			type: 'string',
			default: DEFAULT_ROUTES.videoVendor,
			displayOptions: customOnly,
			description: 'Image to Video is posted to &lt;base URL&gt;/&lt;this&gt;/m2v_16_img2video_10s',
		},
		{
			displayName: 'Service Prefix',
			name: 'servicePrefix',
			type: 'string',
			default: DEFAULT_ROUTES.servicePrefix,
			displayOptions: customOnly,
			description: 'Text to Video is posted to &lt;base URL&gt;/&lt;this&gt;/submit/&lt;model&gt;',
		},
		{
			displayName: 'Image Relax Prefix',
			name: 'imageRelaxPrefix',
			type: 'string',
			default: DEFAULT_ROUTES.imageRelaxPrefix,
			displayOptions: customOnly,
			description: 'Blend is posted to &lt;base URL&gt;/&lt;this&gt;/submit/blend',
		},
		{
			displayName: 'Secret Header Name',
			name: 'blendKeyHeader',
			type: 'string',
			default: DEFAULT_ROUTES.secretHeader,
			displayOptions: customOnly,
			description: 'Header that carries the bare API key on Blend requests',
		},
	];

	/**
	 * One key, two styles: the Blend path gets the bare key in the secret header, every other path
	 * (the video operations, the credential test) gets a Bearer token. Deciding by the request's
	 * path also keeps the right style when the credential is used in the HTTP Request node.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const settings = credentials as unknown as MediaGatewayCredentials;
		const key = String(settings.apiKey ?? '');
		const isBlend = pathOf(requestOptions) === blendPath(settings);
		const auth = isBlend
			? { [routesOf(settings).secretHeader]: key }
			: { Authorization: `Bearer ${key}` };
		return { ...requestOptions, headers: { ...requestOptions.headers, ...auth } };
	}

	/**
	 * Tells a wrong key from a right one without creating a task: a Text to Video request whose body
	 * breaks the spec twice (an empty prompt, 0 inference steps where 1 to 50 are allowed). The
	 * gateway checks the key first: a wrong key is refused with 401 (403 for a key that may not use
	 * it); a right key reaches validation, which refuses the body with 400. No task is created.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: `={{"/" + ($credentials.customizeRoutes && $credentials.servicePrefix ? $credentials.servicePrefix : "${DEFAULT_ROUTES.servicePrefix}") + "/submit/${DEFAULT_ROUTES.textVideoModel}"}}`,
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: { prompt: '', num_inference_steps: 0 },
			json: true,
			// 400 (the body refused after the key was accepted) is the success case; these fail the test.
			ignoreHttpStatusErrors: { ignore: true, except: [...REFUSED_KEY_STATUSES.keys()] },
		},
		rules: [...REFUSED_KEY_STATUSES].map(([value, message]) => ({
			type: 'responseCode' as const,
			properties: { value, message },
		})),
	};
}
