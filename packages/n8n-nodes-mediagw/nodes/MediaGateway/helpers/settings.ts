/**
 * The credential's fields -> the core's configuration. Shared by the credential (to pick the auth
 * style of a request) and the node (to build requests). The API key is never part of the config:
 * n8n adds it to each request through the credential's `authenticate`.
 */
import {
	blend,
	DEFAULT_ROUTES,
	joinUrl,
	type ResolvedConfig,
	type RouteSettings,
	resolveConfig,
} from '@mediagw/core/protocol';

export const CREDENTIAL_NAME = 'mediaGatewayApi';

/**
 * Route settings the credential exposes (the model is a node option instead), by credential
 * field. The header name field avoids the word "secret": n8n's lint would take it for a secret.
 */
export const CREDENTIAL_ROUTES = {
	videoVendor: 'videoVendor',
	servicePrefix: 'servicePrefix',
	imageRelaxPrefix: 'imageRelaxPrefix',
	blendKeyHeader: 'secretHeader',
} as const satisfies Record<string, keyof RouteSettings>;

export type CredentialRoute = (typeof CREDENTIAL_ROUTES)[keyof typeof CREDENTIAL_ROUTES];

export interface MediaGatewayCredentials {
	baseUrl: string;
	apiKey: string;
	customizeRoutes?: boolean;
	videoVendor?: string;
	servicePrefix?: string;
	imageRelaxPrefix?: string;
	blendKeyHeader?: string;
}

/** Route values in force: the defaults unless the user turned "Customize Routes" on. */
export function routesOf(credentials: Partial<MediaGatewayCredentials>): Pick<RouteSettings, CredentialRoute> {
	const routes: Pick<RouteSettings, CredentialRoute> = { ...DEFAULT_ROUTES };
	if (credentials.customizeRoutes) {
		for (const [field, route] of Object.entries(CREDENTIAL_ROUTES)) {
			const value = credentials[field as keyof typeof CREDENTIAL_ROUTES];
			if (typeof value === 'string' && value.trim() !== '') routes[route] = value.trim();
		}
	}
	return routes;
}

/** Throws the core's ValidationError (naming the credential field) for a bad base URL or route. */
export function configFromCredentials(
	credentials: Partial<MediaGatewayCredentials>,
	textVideoModel?: string,
): ResolvedConfig {
	return resolveConfig({
		baseUrl: String(credentials.baseUrl ?? ''),
		...routesOf(credentials),
		...(textVideoModel ? { textVideoModel } : {}),
	});
}

/** The path blend is posted to under these credentials: the one path that takes the secret header. */
export function blendPath(credentials: Partial<MediaGatewayCredentials>): string | undefined {
	try {
		const config = configFromCredentials(credentials);
		return new URL(joinUrl(config, config.imageRelaxPrefix, ...blend.BLEND_ROUTE)).pathname;
	} catch {
		// Unusable settings: the request itself is refused with a clear message before it is sent.
		return undefined;
	}
}
