// Driver of the real-n8n end-to-end step (see run.sh). The emulator runs in this process; every
// n8n command runs as a child process, asynchronously, so the emulator keeps answering.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SAMPLE_VIDEO, startEmulator } from '@mediagw/emulator';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const work = join(here, '.work/run');
const userFolder = join(work, 'user');
const files = join(work, 'files');
const n8n = join(here, 'node_modules/.bin/n8n');
const KEY = 'sk-SENTINEL-n8n-real-3e8f1d';
/** Where the examples expect their input images (n8n's default file access folder in Docker). */
const EXAMPLE_FILES = '/home/node/.n8n-files/mediagw';
const CREDENTIAL_ID = 'mediagw-emulator';
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const env = {
  ...process.env,
  N8N_USER_FOLDER: userFolder,
  N8N_DIAGNOSTICS_ENABLED: 'false',
  N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
  N8N_RUNNERS_ENABLED: 'false',
  N8N_RESTRICT_FILE_ACCESS_TO: files,
  N8N_LOG_LEVEL: 'info',
  N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
};
/** Everything n8n printed, to prove the key never shows. */
const printed = [];
let failures = 0;

function check(name, ok, detail = '') {
  console.log(`${ok ? 'PASS' : 'FAIL'} n8n-real: ${name}${!ok && detail ? ` (${detail})` : ''}`);
  if (!ok) failures++;
}

async function n8nCommand(...args) {
  try {
    const { stdout, stderr } = await run(n8n, args, { env, cwd: work, maxBuffer: 64 * 1024 * 1024 });
    printed.push(stdout, stderr);
    return { stdout, code: 0 };
  } catch (error) {
    printed.push(error.stdout ?? '', error.stderr ?? '');
    return { stdout: error.stdout ?? '', stderr: error.stderr ?? '', code: error.code ?? 1 };
  }
}

/** `n8n execute --rawOutput` prints logs, then the run JSON from a line that is just `{`. */
function runDataOf(stdout) {
  const start = stdout.search(/^\{$/m);
  if (start < 0) throw new Error(`no run data in the output:\n${stdout.slice(-2000)}`);
  return JSON.parse(stdout.slice(start));
}

const outputOf = (data, node) => data.data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? [];

await rm(work, { recursive: true, force: true });
await mkdir(join(userFolder, '.n8n/nodes'), { recursive: true });
await mkdir(join(files, 'blend'), { recursive: true });
const fixture = (name) => join(root, 'packages/n8n-nodes-mediagw/test/fixtures', name);
await copyFile(fixture('red.png'), join(files, 'photo.png'));
for (const image of ['red.png', 'blue.png']) await copyFile(fixture(image), join(files, 'blend', image));

// 1. The package as it would be published, installed where n8n looks for community packages.
const packed = JSON.parse(
  (await run('npm', ['pack', '--json', '-w', 'n8n-nodes-mediagw', '--pack-destination', work], { cwd: root })).stdout,
);
const tarball = join(work, packed[0].filename);
const nodesDir = join(userFolder, '.n8n/nodes');
await writeFile(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
// --legacy-peer-deps: n8n-workflow must come from n8n itself, not a second copy next to the node.
await run('npm', ['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', tarball], {
  cwd: nodesDir,
});
check(`installed ${packed[0].filename} into $N8N_USER_FOLDER/.n8n/nodes`, true);

// 2. The emulator, with one pinned key: a wrong auth style or key would be refused.
const emu = await startEmulator({ port: 0, apiKey: KEY, notifyRetries: 0 });
try {
  const credentials = [
    {
      id: CREDENTIAL_ID,
      name: 'Media Gateway (emulator)',
      type: 'mediaGatewayApi',
      data: { baseUrl: emu.url, apiKey: KEY },
    },
  ];
  await writeFile(join(work, 'credentials.json'), JSON.stringify(credentials));
  const imported = await n8nCommand('import:credentials', `--input=${join(work, 'credentials.json')}`);
  check('credentials imported', imported.code === 0, imported.stderr);

  // 3. The examples, pointed at the copied images, each imported under a known id.
  const examples = {
    'image-to-video.json': 'mgwImageToVideo',
    'text-to-video.json': 'mgwTextToVideo',
    'blend.json': 'mgwBlend',
    'blend-with-trigger.json': 'mgwBlendTrigger',
  };
  const workflows = join(work, 'workflows');
  await mkdir(workflows);
  for (const [file, id] of Object.entries(examples)) {
    const text = await readFile(join(root, 'examples/n8n', file), 'utf8');
    await writeFile(
      join(workflows, file),
      JSON.stringify({ ...JSON.parse(text.replaceAll(EXAMPLE_FILES, files)), id }),
    );
  }
  // One import for all (each n8n command takes seconds to start).
  const result = await n8nCommand('import:workflow', '--separate', `--input=${workflows}`);
  check(`imported examples/n8n/{${Object.keys(examples).join(',')}}`, result.code === 0, result.stderr);

  // 4. Run each and read the run data.
  const execute = async (id) => {
    const result = await n8nCommand('execute', `--id=${id}`, '--rawOutput');
    const data = runDataOf(result.stdout);
    const error = data.data.resultData.error;
    return { data, error: error ? `${error.message} ${error.description ?? ''}` : undefined };
  };

  {
    const { data, error } = await execute('mgwImageToVideo');
    const [item] = outputOf(data, 'Media Gateway');
    const request = emu.requests.find((r) => r.operation === 'image-to-video');
    check('image to video: no error', !error, error);
    check('image to video: task id', typeof item?.json.taskId === 'string' && item.json.taskId === request?.taskId);
    check('image to video: created status 5', item?.json.status === 5);
    check(
      'image to video: uploaded the read image',
      request?.upload?.sha256 === sha256(await readFile(join(files, 'photo.png'))),
    );
  }
  {
    const { data, error } = await execute('mgwTextToVideo');
    const [item] = outputOf(data, 'Media Gateway');
    const video = item?.binary?.data;
    check('text to video: no error', !error, error);
    check('text to video: video URL', String(item?.json.videoUrl).startsWith(`${emu.url}/files/`), item?.json.videoUrl);
    check('text to video: downloaded video binary', video?.mimeType === 'video/mp4', JSON.stringify(video));
    // Filesystem mode (n8n's default): the item holds a reference, the bytes are in n8n's storage.
    const [, path] = String(video?.id).split(':');
    const stored = path ? await readFile(join(userFolder, '.n8n/storage', path)).catch(() => undefined) : undefined;
    check('text to video: stored video bytes match', stored !== undefined && sha256(stored) === sha256(SAMPLE_VIDEO));
  }
  for (const id of ['mgwBlend', 'mgwBlendTrigger']) {
    const before = emu.requests.length;
    const { data, error } = await execute(id);
    const [item] = outputOf(data, 'Media Gateway');
    const request = emu.requests.slice(before).find((r) => r.operation === 'blend');
    check(`${id}: no error`, !error, error);
    check(`${id}: task id`, /^\d+$/.test(String(item?.json.taskId)) && item.json.taskId === request?.taskId);
    const sent = request?.images?.map((i) => i.sha256).sort();
    const expected = await Promise.all(['red.png', 'blue.png'].map(async (f) => sha256(await readFile(fixture(f)))));
    check(`${id}: both images sent`, JSON.stringify(sent) === JSON.stringify(expected.sort()), JSON.stringify(sent));
  }
  const hooked = emu.requests.find((r) => r.operation === 'blend' && r.fields.notifyHook);
  check('blend with trigger: notify hook sent', String(hooked?.fields.notifyHook).includes('/mediagw?token='));
  check('the API key never appears in n8n output', !printed.join('\n').includes(KEY));
} finally {
  await emu.close();
}

console.log(failures === 0 ? 'PASS n8n-real: all checks' : `FAIL n8n-real: ${failures} check(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
