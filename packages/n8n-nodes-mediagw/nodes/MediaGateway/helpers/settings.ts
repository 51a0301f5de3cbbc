/**
 * The credential's fields -> the core's configuration. Shared by the credential (to pick the auth
 * style of a request) and the node (to build requests). The API key is never part of the config:
 * n8n adds it to each request through the credential's `authenticate`.
 */
import {
	DEFAULT_ROUTES,
	OPERATIONS,
	type ResolvedConfig,
	type RouteSettings,
	resolveConfig,
	routePath,
} from '@mediagw/core/protocol';
import type { FieldLabels } from './errors';

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

/** The core's setting names -> the credential's labels, for messages. */
export const credentialLabels: FieldLabels = {
	baseUrl: 'Base URL (credential)',
	apiKey: 'API Key (credential)',
	videoVendor: 'Video Vendor Segment (credential)',
	servicePrefix: 'Service Prefix (credential)',
	imageRelaxPrefix: 'Image Relax Prefix (credential)',
	secretHeader: 'Secret Header Name (credential)',
};

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

/** Throws the core's ValidationError (naming the setting) for a bad base URL or route. */
export function configFromCredentials(credentials: Partial<MediaGatewayCredentials>): ResolvedConfig {
	return resolveConfig({ baseUrl: String(credentials.baseUrl ?? ''), ...routesOf(credentials) });
}

/** The paths that take the secret header (the operations whose auth style it is) under these credentials. */
export function secretHeaderPaths(credentials: Partial<MediaGatewayCredentials>): string[] {
	try {
		const config = configFromCredentials(credentials);
		return OPERATIONS.filter((op) => op.auth === 'secret-header').map(
			(op) => new URL(`${config.baseUrl}/${routePath(op.route, config)}`).pathname,
		);
	} catch {
		// Unusable settings: the request itself is refused with a clear message before it is sent.
		return [];
	}
}
