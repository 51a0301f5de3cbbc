// The real-n8n test library: one import for a step's driver.
export * from './api.mjs';
export * from './gateway.mjs';
export * from './n8n.mjs';
export * from './package.mjs';
export * from './processes.mjs';
export * from './report.mjs';
export * from './scenarios.mjs';
export * from './secrets.mjs';
export * from './services.mjs';
export * from './util.mjs';
export * from './waiting.mjs';
export * from './workflows.mjs';
