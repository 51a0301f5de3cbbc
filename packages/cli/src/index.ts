/** `@mediagw/cli` as a library: run the command in-process (tests, wrappers). */
export { type Command, commonOptions } from './command.js';
export { EXIT, exitCodeFor } from './exit-codes.js';
export { COMMANDS, main, version } from './main.js';
export type { Io, Stream } from './output.js';
