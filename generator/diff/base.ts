/**
 * The old side of a diff (`--base OLD`): a folder holding the old `openapi.yaml`/`asyncapi.yaml`, or a git ref whose
 * documents sit at the same paths as the new ones. A ref's spec folders are written to a temporary folder first, so
 * that the old documents load like any other, the files they reference included.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { shownPath, UsageError } from '../diagnostics.js';
import { loadSpecs } from '../load/index.js';
import type { Side } from './compare.js';

/** The old documents, and a way to remove what reading them left behind. */
export interface Base {
  readonly side: Side;
  close(): Promise<void>;
}

/** The new documents' files (absolute paths); one may be absent. */
export interface Documents {
  readonly openapi: string | undefined;
  readonly asyncapi: string | undefined;
}

/** Reads `base` (a folder or a git ref) for the documents `docs` names; a bad ref or a missing file is a UsageError. */
export async function readBase(base: string, docs: Documents): Promise<Base> {
  if (existsSync(base) && statSync(base).isDirectory()) return readFolder(base, docs);
  return readRef(base, docs);
}

async function readFolder(folder: string, docs: Documents): Promise<Base> {
  const old = (file: string | undefined) => {
    if (file === undefined) return undefined;
    const found = join(folder, basename(file));
    if (!existsSync(found)) throw new UsageError(`--base ${folder} has no ${basename(file)}`);
    return found;
  };
  const specs = await loadSpecs(old(docs.openapi), old(docs.asyncapi));
  return { side: { ...specs, shown: (file) => shownPath(file) }, close: async () => {} };
}

async function readRef(ref: string, docs: Documents): Promise<Base> {
  const root = git(['rev-parse', '--show-toplevel'], `--base ${ref} is not a folder, and this is not a git repository`);
  git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], `--base ${ref} is neither a folder nor a git ref here`);
  const inRepo = (file: string | undefined) =>
    file === undefined ? undefined : relative(realpathSync(root.trim()), realpathSync(file)).split(sep).join('/');
  const paths = { openapi: inRepo(docs.openapi), asyncapi: inRepo(docs.asyncapi) };
  for (const path of [paths.openapi, paths.asyncapi])
    if (path !== undefined) git(['cat-file', '-e', `${ref}:${path}`], `--base ${ref} has no ${path}`);
  const folder = await mkdtemp(join(tmpdir(), 'casi-base-'));
  try {
    await writeSpecFolders(ref, [paths.openapi, paths.asyncapi], folder);
    const at = (path: string | undefined) => (path === undefined ? undefined : join(folder, path));
    const specs = await loadSpecs(at(paths.openapi), at(paths.asyncapi));
    const shown = (file: string) => `${ref}:${relative(folder, file).split(sep).join('/')}`;
    return { side: { ...specs, shown }, close: () => rm(folder, { recursive: true, force: true }) };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Writes every YAML and JSON file of the folders holding `paths`, as of `ref`, under `folder`. */
async function writeSpecFolders(ref: string, paths: readonly (string | undefined)[], folder: string): Promise<void> {
  const dirs = [...new Set(paths.filter((p) => p !== undefined).map((p) => posix.dirname(p)))];
  const listed = git(['ls-tree', '-r', '--name-only', '-z', ref, '--', ...dirs], `cannot list ${dirs.join(', ')}`);
  const files = listed.split('\0').filter((f) => /\.(ya?ml|json)$/i.test(f));
  const blobs = catFiles(
    ref,
    files.filter((f) => !f.includes('\n')),
  );
  for (const [path, content] of blobs) {
    const target = join(folder, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/** The contents of `files` at `ref`, read by one `git cat-file --batch`. */
function catFiles(ref: string, files: readonly string[]): Map<string, Buffer> {
  const out = execFileSync('git', ['cat-file', '--batch'], {
    input: files.map((f) => `${ref}:${f}\n`).join(''),
    maxBuffer: 1 << 30,
  });
  const blobs = new Map<string, Buffer>();
  let at = 0;
  for (const file of files) {
    const newline = out.indexOf(10, at);
    const header = out.subarray(at, newline).toString('utf8').split(' ');
    const size = Number(header[2]);
    at = newline + 1;
    if (header[1] !== 'blob') continue;
    blobs.set(file, out.subarray(at, at + size));
    at += size + 1;
  }
  return blobs;
}

/** Runs git and returns its output; a failure becomes a UsageError with `message`. */
function git(args: readonly string[], message: string): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
  } catch {
    throw new UsageError(message);
  }
}
