#!/usr/bin/env node
import nodeModule from 'node:module';

// Say so plainly on an older Node, before loading modules that would fail obscurely.
const MIN_NODE = 24;
if (Number(process.versions.node.split('.')[0]) < MIN_NODE) {
  process.stderr.write(`mediagw: needs Node.js ${MIN_NODE} or later; this is ${process.version}\n`);
  process.exit(1);
}
// Caches compiled code between runs (Node's own cache dir): a CLI starts many times a day.
nodeModule.enableCompileCache();
const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2));
