// Imported first by every example: on an older Node, one plain line instead of a stack trace from
// deep inside a dependency (@mediagw/core needs Node 22.19 or later; the repository runs on 24).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  console.error(`mediagw examples need Node.js 22.19 or later (24 recommended); this is ${process.version}.`);
  console.error('In this repository: npm ci, then run them with npx node examples/core/<name>.mjs');
  process.exit(1);
}
