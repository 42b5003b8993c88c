/**
 * Writes emitted files into the output folder, or compares them with it (`--check`). The folder's manifest,
 * `.casi-manifest.json` (written with the files, and compared like them), lists the files `casi generate` wrote
 * there: the only ones it ever overwrites or removes. A folder without a manifest is written into only when it is
 * new or empty, or when it is the output of a casi that wrote no manifest (its package.json carries the generated
 * header; the files carrying the header are then its own). Every target is checked before anything is written.
 */
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { type EmittedFile, GENERATED_HEADER, GENERATED_MARK, stableJson } from './emit/shared/files.js';

/** The manifest's name in the output folder. */
export const MANIFEST = '.casi-manifest.json';

/** The output folder cannot be written as asked; `casi` prints the message (exit 1). */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/** What differs between the emitted files (and their manifest) and the folder. */
export interface OutputDiff {
  readonly changed: string[];
  readonly missing: string[];
  /** Files a previous generate wrote that the emitters no longer produce. */
  readonly stale: string[];
}

/** A path as messages show it: relative to the working directory when inside it, else absolute. */
function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/** Folders of the output that are build products or installs, never compared. */
const IGNORED = new Set(['node_modules', 'dist']);

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => !IGNORED.has(path.split('/')[0] ?? ''))
    .sort();
}

/** The emitted files and the manifest that lists them. */
function withManifest(files: readonly EmittedFile[]): EmittedFile[] {
  return [...files, { path: MANIFEST, content: manifestText(files.map((f) => f.path)) }];
}

function manifestText(paths: Iterable<string>): string {
  const note = `${GENERATED_HEADER}: the files casi generate wrote here, the only ones it overwrites or removes`;
  return stableJson({ '//': note, files: [...new Set(paths)].sort() });
}

/**
 * Which files of the folder a previous generate wrote, and by which rule (for messages); `foreign` names a file
 * of a folder that is not its own.
 */
interface Ownership {
  readonly owned: ReadonlySet<string>;
  readonly rule: string;
  readonly foreign?: string;
}

async function ownership(out: string, present: readonly string[]): Promise<Ownership> {
  const manifest = join(out, MANIFEST);
  const text = await readFile(manifest, 'utf8').catch(() => undefined);
  const rule = `${MANIFEST} does not list it`;
  if (text !== undefined) return { owned: new Set([...parseManifest(text, manifest), MANIFEST]), rule };
  const entries = await readdir(out).catch(() => []);
  if (entries.length === 0) return { owned: new Set(), rule };
  if (await carriesHeader(join(out, 'package.json'))) {
    const owned = new Set<string>();
    for (const path of present) if (await carriesHeader(join(out, path))) owned.add(path);
    return { owned, rule: 'it does not carry the generated header' };
  }
  return { owned: new Set(), rule, foreign: present[0] ?? entries.sort()[0] };
}

async function carriesHeader(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.slice(0, 200).includes(GENERATED_MARK);
}

/** The paths a manifest lists: relative, `/`-separated, inside the folder. */
function parseManifest(text: string, file: string): string[] {
  let files: unknown;
  try {
    files = (JSON.parse(text) as { files?: unknown } | null)?.files;
  } catch {
    files = undefined;
  }
  const inside = (path: unknown) =>
    typeof path === 'string' &&
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
  if (!Array.isArray(files) || !files.every(inside)) {
    throw new OutputError(
      `${shownPath(file)} is not a manifest casi wrote (a "files" list of paths inside the folder); fix or remove it`,
    );
  }
  return files as string[];
}

/**
 * Compares `files` (and their manifest) with the contents of `out`. Only files a previous generate wrote (see the
 * file's comment) count as stale.
 */
export async function diffOutput(out: string, files: readonly EmittedFile[]): Promise<OutputDiff> {
  return (await compare(out, withManifest(files))).diff;
}

async function compare(out: string, files: readonly EmittedFile[]) {
  const wanted = new Map(files.map((f) => [f.path, f.content]));
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [path, content] of wanted) {
    const current = await readFile(join(out, path), 'utf8').catch(() => undefined);
    if (current === undefined) missing.push(path);
    else if (current !== content) changed.push(path);
  }
  const present = await listFiles(out);
  const owners = await ownership(out, present);
  const stale = present.filter((path) => owners.owned.has(path) && !wanted.has(path));
  return { diff: { changed, missing, stale }, owners, wanted };
}

/**
 * Writes what changed and removes stale files, only ever touching files a previous generate wrote, and resolves
 * with what differed among `files` (the manifest, the folder's bookkeeping, is not one of them). Throws
 * OutputError, having written nothing, when a target is not its own or cannot be written (a folder in the way, a
 * file where a folder must go, no permission); a write that still fails is an OutputError too.
 */
export async function writeOutput(out: string, files: readonly EmittedFile[]): Promise<OutputDiff> {
  await mustBeFolder(out);
  const { diff, owners, wanted } = await compare(out, withManifest(files));
  const writes = [...diff.changed, ...diff.missing];
  if (writes.length === 0 && diff.stale.length === 0) return ofEmitted(diff);
  if (owners.foreign !== undefined) {
    throw new OutputError(
      `refusing to write into ${shownPath(out)}: the folder is not empty and casi generate did not write it ` +
        `(it holds ${owners.foreign}, and no ${MANIFEST}); name a new or empty folder, or one casi generate wrote`,
    );
  }
  for (const path of writes) await mayWrite(out, path, owners);
  try {
    // The manifest first claims every file about to be written, so that an interrupted run leaves none unclaimed.
    const claimed = manifestText([...owners.owned, ...wanted.keys()].filter((p) => p !== MANIFEST));
    const final = wanted.get(MANIFEST) ?? '';
    if (claimed !== final) await put(out, MANIFEST, claimed);
    for (const path of writes) await put(out, path, wanted.get(path) ?? '');
    for (const path of diff.stale) await rm(join(out, path), { force: true });
    if (claimed !== final) await put(out, MANIFEST, final);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OutputError(`writing ${shownPath(out)} failed, part of it is written; ${reason}`);
  }
  return ofEmitted(diff);
}

/** `diff` without the manifest: what `casi generate` reports as changed is the emitted files alone. */
function ofEmitted(diff: OutputDiff): OutputDiff {
  const emitted = (path: string) => path !== MANIFEST;
  return {
    changed: diff.changed.filter(emitted),
    missing: diff.missing.filter(emitted),
    stale: diff.stale.filter(emitted),
  };
}

async function put(out: string, path: string, content: string): Promise<void> {
  const target = join(out, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, content);
}

/** `out` is a folder, or nothing yet. */
async function mustBeFolder(out: string): Promise<void> {
  const found = await stat(out).catch(() => undefined);
  if (found && !found.isDirectory()) throw new OutputError(`cannot write into ${shownPath(out)}: it is not a folder`);
}

/**
 * Whether `path` may be written in `out`: a file a previous generate wrote, or nothing yet, in folders (or places
 * for new ones) that exist as folders, all writable.
 */
async function mayWrite(out: string, path: string, { owned, rule }: Ownership): Promise<void> {
  const target = join(out, path);
  const problem = (why: string) => new OutputError(`cannot write ${shownPath(target)}: ${why}; nothing was written`);
  const found = await stat(target).catch(() => undefined);
  if (found?.isDirectory()) throw problem('it is a folder');
  if (found && !owned.has(path)) {
    throw new OutputError(
      `refusing to overwrite ${shownPath(target)}: casi generate did not write it (${rule}); nothing was written`,
    );
  }
  // The nearest existing folder on the way, which must be a folder and writable.
  let existing = found ? target : dirname(target);
  for (;;) {
    const entry = await stat(existing).catch(() => undefined);
    if (entry && !entry.isDirectory() && existing !== target) throw problem(`${shownPath(existing)} is not a folder`);
    if (entry || dirname(existing) === existing) break;
    existing = dirname(existing);
  }
  if (
    !(await access(existing, constants.W_OK).then(
      () => true,
      () => false,
    ))
  )
    throw problem(`${shownPath(existing)} is not writable`);
}
