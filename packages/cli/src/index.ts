/** `@mediagw/cli` as a library: run the command in-process (tests, wrappers), with extra operations if wanted. */
export { type Command, commonOptions } from './command.js';
export { EXIT, EXIT_MEANINGS, exitCodeFor } from './exit-codes.js';
export { commandsFor, type MainOptions, main, version } from './main.js';
export { operationCommand } from './operation.js';
export type { Io, Stream } from './output.js';
