// The tests load the BUILT package, as n8n does: bundle it first so they never run stale code.
import { buildPackage } from '../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await buildPackage();
}
