/**
 * Local paths: relative to the workspace, globs for image lists, and the policy that keeps the
 * action inside GITHUB_WORKSPACE and RUNNER_TEMP unless allow-paths-outside-workspace says
 * otherwise. Symbolic links are resolved before the check (the file, or its nearest existing
 * folder for a file still to be written), so a link cannot lead out.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as glob from '@actions/glob';
import { PATH_POLICY_INPUT } from './contract.js';
import type { InputIssue } from './inputs.js';

export function workspace(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

export function resolvePath(path: string): string {
  return resolve(workspace(), path);
}

const isWithin = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** A path as the user wrote it relative to the workspace, for messages and the summary. */
export function shown(path: string): string {
  return isWithin(workspace(), path) ? relative(workspace(), path) || '.' : path;
}

/** The real location of a path: symbolic links resolved, up to its nearest existing folder. */
async function realLocation(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realLocation(parent), basename(path));
  }
}

export interface PathPolicy {
  /** Where files may be, real paths (empty: anywhere). */
  roots: string[];
}

export async function pathPolicy(allowOutside: boolean): Promise<PathPolicy> {
  if (allowOutside) return { roots: [] };
  const places = [workspace(), process.env.RUNNER_TEMP].filter((p): p is string => Boolean(p));
  return { roots: await Promise.all(places.map(realLocation)) };
}

/** Adds an issue when `path` (absolute) lies outside the allowed places; true when it is fine. */
export async function checkPlace(
  policy: PathPolicy,
  path: string,
  name: string,
  issues: InputIssue[],
): Promise<boolean> {
  if (policy.roots.length === 0) return true;
  const real = await realLocation(path);
  if (policy.roots.some((root) => isWithin(root, real))) return true;
  const via = real === path ? '' : ` (it leads to ${real})`;
  issues.push({
    input: name,
    message: `${path}${via} is outside the workspace and RUNNER_TEMP; give a path inside them, or set ${PATH_POLICY_INPUT}: true`,
  });
  return false;
}

/**
 * Paths or globs, one per line, relative to the workspace. Files come in the order of the lines
 * (blend order matters), each glob's matches sorted; `!pattern` lines exclude from all of them.
 */
export async function resolveGlobs(name: string, lines: readonly string[], issues: InputIssue[]): Promise<string[]> {
  const anchored = (line: string) =>
    line.startsWith('!') ? `!${resolvePath(line.slice(1).trim())}` : resolvePath(line);
  const patterns = lines.filter((l) => !l.startsWith('#'));
  const excludes = patterns.filter((l) => l.startsWith('!')).map(anchored);
  const files: string[] = [];
  for (const line of patterns.filter((l) => !l.startsWith('!'))) {
    const globber = await glob.create([anchored(line), ...excludes].join('\n'), {
      matchDirectories: false,
      implicitDescendants: false,
      followSymbolicLinks: true,
    });
    const matches = (await globber.glob()).sort();
    if (matches.length === 0) {
      issues.push({
        input: name,
        message: `${JSON.stringify(line)} matches no file in the workspace (${workspace()}); allowed: paths or globs relative to it, one per line`,
      });
    }
    for (const file of matches) if (!files.includes(file)) files.push(file);
  }
  if (patterns.every((l) => l.startsWith('!'))) {
    issues.push({ input: name, message: 'is required: image paths or globs, one per line' });
  }
  return files;
}
