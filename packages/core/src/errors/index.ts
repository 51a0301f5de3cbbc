/**
 * One small error tree. Catch by class (`instanceof GatewayError`) or by `kind`.
 * No error ever holds request headers or the API key: messages are built from field names,
 * statuses and the gateway's own (scrubbed, plain) text only.
 */
export * from './base.js';
export * from './gateway.js';
export * from './transport.js';
