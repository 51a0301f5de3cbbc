/**
 * A local file we are about to write, reserved BEFORE anything is sent: a paid task is never
 * created when its result cannot be saved. Reserving checks the target (never a device, a FIFO,
 * a directory; an existing file only with overwrite on), creates missing folders and an exclusive
 * temporary file beside the target (proof that we can write there). The result is written into
 * the temporary file and moved into place at the end; nothing that was there is ever destroyed.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, link, lstat, mkdir, open, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ValidationError } from '../errors/index.js';

export interface ReserveOptions {
  /** Replace an existing regular file (default: refuse it). */
  overwrite?: boolean | undefined;
  /** How the caller names the path setting and the overwrite switch, for messages. */
  names?: { path?: string; overwrite?: string } | undefined;
}

type Stats = Awaited<ReturnType<typeof lstat>>;

/** What a non-regular file is, in words. */
function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

const reasonOf = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    ENOTDIR: 'a part of the path is not a directory',
    EEXIST: 'it already exists',
  };
  return e?.code ? `${words[e.code] ?? e.message} (${e.code})` : String((error as Error)?.message ?? error);
};

/** Writing to the local file failed (the disk, not the network). */
export class LocalWriteError extends Error {
  readonly code: string | undefined;
  constructor(readonly error: unknown) {
    super(reasonOf(error));
    this.code = (error as NodeJS.ErrnoException)?.code;
  }
}

export class OutputFile {
  /** The absolute target path. */
  readonly path: string;
  readonly #temp: string;
  readonly #handle: FileHandle;
  readonly #overwrite: boolean;
  /** Folders reserve() created, deepest last: removed again (if still empty) when discarded. */
  readonly #createdDirs: string[];
  #done = false;

  private constructor(path: string, temp: string, handle: FileHandle, overwrite: boolean, createdDirs: string[]) {
    this.path = path;
    this.#temp = temp;
    this.#handle = handle;
    this.#overwrite = overwrite;
    this.#createdDirs = createdDirs;
  }

  /** Checks and reserves `path`; throws a ValidationError (field `output`) naming the problem. */
  static async reserve(path: string, options: ReserveOptions = {}): Promise<OutputFile> {
    const name = options.names?.path ?? 'output';
    const refuse = (message: string) => new ValidationError([{ field: name, message }]);
    const target = resolve(path);
    const overwrite = options.overwrite === true;
    await checkTarget(target, overwrite, options.names?.overwrite ?? 'overwrite', refuse);

    const dir = dirname(target);
    const createdDirs: string[] = [];
    try {
      const first = await mkdir(dir, { recursive: true });
      for (let d = dir; first && d.length >= first.length; d = dirname(d)) createdDirs.unshift(d);
    } catch (error) {
      throw refuse(`cannot create the folder ${dir}: ${reasonOf(error)}`);
    }
    const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
    try {
      const handle = await open(temp, 'wx', 0o644);
      return new OutputFile(target, temp, handle, overwrite, createdDirs);
    } catch (error) {
      await removeDirs(createdDirs);
      throw refuse(`cannot write in ${dir}: ${reasonOf(error)}`);
    }
  }

  /** Writes the chunks in order into the temporary file; stops with `tooMuch()` past `maxBytes`. */
  async write(chunks: AsyncIterable<Uint8Array>, maxBytes: number, tooMuch: (bytes: number) => Error): Promise<number> {
    let bytes = 0;
    for await (const chunk of chunks) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) throw tooMuch(bytes);
      await this.#handle.write(chunk).catch((error) => {
        throw new LocalWriteError(error);
      });
    }
    return bytes;
  }

  /** Moves the finished file into place: never over anything unless overwrite was allowed, never over a non-file. */
  async commit(): Promise<void> {
    await this.#handle.close();
    this.#done = true;
    const existing = await lstat(this.path).catch(() => undefined);
    if (existing && (this.#overwrite ? !(await isFileOrLinkToFile(this.path)) : true)) {
      await rm(this.#temp, { force: true });
      throw Object.assign(new Error(`${this.path} appeared while downloading (${kindOf(existing)})`), {
        code: 'EEXIST',
      });
    }
    if (this.#overwrite) await rename(this.#temp, this.path);
    else {
      // link() fails if the target appeared meanwhile: no window in which it could be replaced.
      await link(this.#temp, this.path).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw error;
        await rename(this.#temp, this.path); // a file system without hard links
      });
      await rm(this.#temp, { force: true });
    }
  }

  /** Removes the temporary file and the folders reserve() created. Never throws. */
  async discard(): Promise<void> {
    if (!this.#done) await this.#handle.close().catch(() => undefined);
    this.#done = true;
    await rm(this.#temp, { force: true }).catch(() => undefined);
    await removeDirs(this.#createdDirs);
  }
}

async function isFileOrLinkToFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() === true;
}

async function checkTarget(
  target: string,
  overwrite: boolean,
  overwriteName: string,
  refuse: (message: string) => ValidationError,
): Promise<void> {
  const info = await lstat(target).catch((error: NodeJS.ErrnoException) => {
    // Not there (or a parent is a file: creating the folder will say so).
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw refuse(`${target} cannot be checked: ${reasonOf(error)}`);
  });
  if (!info) return;
  const followed = info.isSymbolicLink() ? await stat(target).catch(() => undefined) : info;
  if (!followed) throw refuse(`${target} is a symbolic link to nothing; give a file path`);
  if (followed.isDirectory())
    throw refuse(`${target} is a directory; give a file path inside it, such as ${join(target, 'video.mp4')}`);
  if (!followed.isFile()) throw refuse(`${target} is ${kindOf(followed)}, not a regular file; it is never replaced`);
  if (!overwrite) throw refuse(`${target} already exists; choose another path, or set ${overwriteName} to replace it`);
}

async function removeDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) await rmdir(dir).catch(() => undefined);
}

/** The OS reason of a local write failure, in words. */
export { reasonOf as localReason };
