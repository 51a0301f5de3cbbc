import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { DEFAULT_ROUTES, KEY_PROBE, type RouteSetting } from '@mediagw/core/protocol';
import {
	CREDENTIAL_ROUTES,
	type MediaGatewayCredentials,
	routesOf,
	secretHeaderPaths,
} from '../nodes/MediaGateway/helpers/settings';

const customOnly = { show: { customizeRoutes: [true] } };

/** A route setting as an n8n expression: the credential's field when routes are customised, else the default. */
function settingExpression(setting: RouteSetting): string {
	const field = Object.entries(CREDENTIAL_ROUTES).find(([, route]) => route === setting)?.[0];
	const fallback = JSON.stringify(DEFAULT_ROUTES[setting]);
	return field ? `($credentials.customizeRoutes && $credentials.${field} ? $credentials.${field} : ${fallback})` : fallback;
}

/** The key probe's path under the credential's settings, as an expression (the core's route template). */
const PROBE_PATH = `={{${KEY_PROBE.operation.route
	.map((segment) => (typeof segment === 'string' ? JSON.stringify(segment) : settingExpression(segment.setting)))
	.map((part) => `"/" + ${part}`)
	.join(' + ')}}}`;

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
		const path = pathOf(requestOptions);
		const auth = path !== undefined && secretHeaderPaths(settings).includes(path)
			? { [routesOf(settings).secretHeader]: key }
			: { Authorization: `Bearer ${key}` };
		return { ...requestOptions, headers: { ...requestOptions.headers, ...auth } };
	}

	/**
	 * Tells a wrong key from a right one without creating a task: the core's key probe (a request
	 * whose body breaks the spec twice). The gateway checks the key first: 401/403 for a wrong key;
	 * a right key reaches validation, which refuses the body with 400. No task is created.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: PROBE_PATH,
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: { ...KEY_PROBE.body },
			json: true,
			// 400 (the body refused after the key was accepted) is the success case; these fail the test.
			ignoreHttpStatusErrors: { ignore: true, except: Object.keys(KEY_PROBE.refusals).map(Number) },
		},
		rules: Object.entries(KEY_PROBE.refusals).map(([value, message]) => ({
			type: 'responseCode' as const,
			properties: { value: Number(value), message },
		})),
	};
}
