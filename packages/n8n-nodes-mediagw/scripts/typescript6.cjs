// Preloaded (NODE_OPTIONS=--require) into `n8n-node lint` and the scanner. typescript-eslint needs
// TypeScript < 6.1, but npm hoists its helper `ts-api-utils` to the monorepo root, where `typescript`
// is 7 (native compiler, no JS API) and the lint crashes on load. Every `require('typescript')`
// is sent to the 6.x this package declares instead.
const Module = require('node:module');
const { dirname, join } = require('node:path');

const typescript6 = join(
  dirname(require.resolve('typescript/package.json', { paths: [join(__dirname, '..')] })),
  'lib',
  'typescript.js',
);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'typescript' ? typescript6 : resolve.call(this, request, ...rest);
};
