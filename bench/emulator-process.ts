/**
 * The emulator in its own process, so its CPU and memory never count against the client measured.
 * Prints its base URL on the first line of stdout; options as JSON in argv[2].
 */
import { startEmulator } from '@mediagw/emulator';

const emulator = await startEmulator({ port: 0, ...(JSON.parse(process.argv[2] ?? '{}') as object) });
process.stdout.write(`${emulator.url}\n`);
const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
