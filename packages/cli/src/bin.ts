#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Caches compiled code between runs (Node's own cache dir): a CLI starts many times a day.
enableCompileCache();
const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2));
