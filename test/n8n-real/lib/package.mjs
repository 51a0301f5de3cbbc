// The node as users get it: `npm pack` of the workspace, installed with npm where n8n loads
// community packages ($N8N_USER_FOLDER/.n8n/nodes). Every n8n process that uses this user folder
// (main, workers, webhook processors) then loads the same copy.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { N8N_REAL_DIR } from './n8n.mjs';

const run = promisify(execFile);
export const REPO_ROOT = join(N8N_REAL_DIR, '../..');
export const PACKAGE_NAME = 'n8n-nodes-mediagw';
/** Node type names as n8n registers an installed package: `<package>.<node name>`. */
export const NODE_TYPES = {
  gateway: `${PACKAGE_NAME}.mediaGateway`,
  trigger: `${PACKAGE_NAME}.mediaGatewayTrigger`,
};
export const CREDENTIAL_TYPE = 'mediaGatewayApi';

/** Packs the built workspace package into `dir`; returns the tarball's path. */
export async function packNode(dir) {
  await mkdir(dir, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--json', '-w', PACKAGE_NAME, '--pack-destination', dir], {
    cwd: REPO_ROOT,
  });
  return join(dir, JSON.parse(stdout)[0].filename);
}

/**
 * Installs the tarball into `<userFolder>/.n8n/nodes` (a folder with its own package.json, as n8n
 * keeps it). --legacy-peer-deps: n8n-workflow must come from n8n itself, not a second copy.
 * Returns the installed version.
 */
export async function installNode(userFolder, tarball) {
  const nodesDir = join(userFolder, '.n8n/nodes');
  await mkdir(nodesDir, { recursive: true });
  await writeFile(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  await run('npm', ['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tarball], {
    cwd: nodesDir,
  });
  const manifest = JSON.parse(await readFile(join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'));
  return { nodesDir, version: manifest.version };
}
