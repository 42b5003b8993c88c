/** Writes emitted files into the output folder, or compares them with it (`--check`). */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { type EmittedFile, GENERATED_HEADER } from './emit/shared/files.js';

/** What differs between the emitted files and the folder. */
export interface OutputDiff {
  readonly changed: string[];
  readonly missing: string[];
  /** Generated files on disk that the emitters no longer produce. */
  readonly stale: string[];
}

/** Folders of the output that are build products or installs, never compared. */
const IGNORED = new Set(['node_modules', 'dist']);

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => !IGNORED.has(path.split('/')[0] ?? ''));
}

/** Compares `files` with the contents of `out`. Only files carrying the generated header count as stale. */
export async function diffOutput(out: string, files: readonly EmittedFile[]): Promise<OutputDiff> {
  const wanted = new Map(files.map((f) => [f.path, f.content]));
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [path, content] of wanted) {
    const current = await readFile(join(out, path), 'utf8').catch(() => undefined);
    if (current === undefined) missing.push(path);
    else if (current !== content) changed.push(path);
  }
  const stale: string[] = [];
  for (const path of await listFiles(out)) {
    if (wanted.has(path)) continue;
    const text = await readFile(join(out, path), 'utf8').catch(() => '');
    if (text.slice(0, 200).includes(GENERATED_HEADER)) stale.push(path);
  }
  return { changed, missing, stale: stale.sort() };
}

/** Writes what changed and removes stale generated files; files without the header are never touched. */
export async function writeOutput(out: string, files: readonly EmittedFile[]): Promise<OutputDiff> {
  const diff = await diffOutput(out, files);
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  for (const path of [...diff.changed, ...diff.missing]) {
    const target = join(out, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, byPath.get(path) ?? '');
  }
  for (const path of diff.stale) await rm(join(out, path));
  return diff;
}
