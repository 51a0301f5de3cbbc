// n8n's lint reads node descriptions as written in the source; ours is generated from the core's
// registry at load time, so the lint would not see its parameters. This writes the built node's
// description back as the literal n8n's lint expects, in memory, and lints it with the package's
// own eslint config (the same rules `n8n-node lint` applies). Any finding fails.
const { join } = require('node:path');
const { ESLint } = require('eslint');

const root = join(__dirname, '..');
const { MediaGateway } = require(join(root, 'dist/nodes/MediaGateway/MediaGateway.node.js'));

/** The description as TypeScript source: identifiers unquoted, single quotes, connection types by name. */
function literal(value) {
  return JSON.stringify(value, null, '\t')
    .replace(/\n/g, '\n\t')
    .replace(/"([A-Za-z_$][\w$]*)":/g, '$1:')
    .replace(/'/g, "\\'")
    .replace(/"((?:[^"\\]|\\.)*)"/g, (_m, text) => `'${text.replace(/\\"/g, '"')}'`)
    .replace(/(inputs|outputs): \[\n\t*'main'\n\t*\]/g, '$1: [NodeConnectionTypes.Main]');
}

/** The node's webhookMethods as stubs (the lint checks they exist; their bodies live in the real source). */
function webhookMethods(node) {
  if (!node.webhookMethods) return [];
  const groups = Object.entries(node.webhookMethods).map(
    ([group, methods]) =>
      `\t\t${group}: {\n${Object.keys(methods)
        .map((name) => `\t\t\tasync ${name}(this: IHookFunctions): Promise<boolean> {\n\t\t\t\treturn true;\n\t\t\t},`)
        .join('\n')}\n\t\t},`,
  );
  return ['', '\twebhookMethods = {', ...groups, '\t};'];
}

(async () => {
  const node = new MediaGateway();
  const source = [
    "import type { IHookFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';",
    "import { NodeConnectionTypes } from 'n8n-workflow';",
    '',
    'export class MediaGateway implements INodeType {',
    `\tdescription: INodeTypeDescription = ${literal(node.description)};`,
    ...webhookMethods(node),
    '}',
    '',
  ].join('\n');
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(source, { filePath: join(root, 'nodes/MediaGateway/MediaGateway.node.ts') });
  const lines = source.split('\n');
  for (const m of result.messages)
    console.error(`generated description:${m.line}: ${m.ruleId}: ${m.message}\n  ${lines[m.line - 1]?.trim()}`);
  if (result.messages.length > 0) process.exitCode = 1;
  else console.log(`generated description: n8n's lint passed (${lines.length} lines)`);
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
