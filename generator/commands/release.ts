/**
 * `casi release`: versions the generated package by the changes since the last release. The package's version is
 * the spec's `info.version` (the generator reads it from there), so release raises that value in the document by
 * semver, regenerates, and prepends a CHANGELOG.md entry to the output folder; `generate --check` stays clean.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { InputError, UsageError } from '../diagnostics.js';
import { bumped, bumpOf, changelogEntry, withEntry } from '../diff/report.js';
import type { SourceDocument } from '../load/index.js';
import { diffAgainst, summary } from './diff.js';
import { runGenerate } from './generate.js';

export interface ReleaseArgs {
  readonly base?: string | undefined;
  readonly openapi?: string | undefined;
  readonly asyncapi?: string | undefined;
  readonly out: string;
}

/** The tags that mark releases: `casi-v<version>`. */
const TAG_PREFIX = 'casi-v';

/** Releases; returns 0, or the generator's exit code when regeneration fails. */
export async function runRelease(args: ReleaseArgs): Promise<number> {
  const base = args.base ?? lastReleaseTag();
  const { changes, versioned } = await diffAgainst(base, args);
  const oldVersion = String((versioned.old.value.info as { version?: unknown } | undefined)?.version ?? '');
  const bump = bumpOf(changes);
  if (bump === undefined) {
    process.stdout.write(`casi: no changes against ${base}; the version stays ${oldVersion}\n`);
    return 0;
  }
  const version = bumped(oldVersion, bump);
  if (version === undefined)
    throw new InputError(
      `${base}: info.version ${JSON.stringify(oldVersion)} is not a semantic version (MAJOR.MINOR.PATCH); casi release cannot raise it`,
    );
  await setVersion(versioned.now, version);
  const generated = await runGenerate({ openapi: args.openapi, asyncapi: args.asyncapi, out: args.out, check: false });
  if (generated !== 0) return generated;
  const changelog = join(args.out, 'CHANGELOG.md');
  const existing = await readFile(changelog, 'utf8').catch(() => '');
  await writeFile(changelog, withEntry(existing, changelogEntry(version, base, changes), version));
  process.stdout.write(
    `casi: released ${version} (${bump}: ${summary(changes)} against ${base}); ` +
      `wrote ${relative(process.cwd(), changelog)}; after committing, tag it: git tag ${TAG_PREFIX}${version}\n`,
  );
  return 0;
}

/** The newest `casi-v*` tag by version; a UsageError when there is none. */
function lastReleaseTag(): string {
  let tags = '';
  try {
    tags = execFileSync('git', ['tag', '--list', `${TAG_PREFIX}*`, '--sort=-v:refname'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    throw new UsageError('casi release needs a git repository to find the last release; or pass --base REF');
  }
  const last = tags.split('\n')[0]?.trim();
  if (!last) throw new UsageError(`no ${TAG_PREFIX}<version> tag marks a release yet; pass --base REF`);
  return last;
}

/** Rewrites the `info.version` value of `doc` in its file, in place, keeping its quotes and the rest of the text. */
async function setVersion(doc: SourceDocument, version: string): Promise<void> {
  if (typeof (doc.value.info as { version?: unknown } | undefined)?.version !== 'string')
    throw new InputError(`${doc.file}: info.version is missing or not a string; casi release sets it`);
  const { line, column } = doc.locate('/info/version');
  const lines = doc.text.split('\n');
  const text = lines[line - 1];
  const match = text === undefined ? null : /^(["']?)[^"'\s,#}]+\1/.exec(text.slice(column - 1));
  if (text === undefined || match === null)
    throw new InputError(`${doc.file}:${line}: cannot find the info.version value to raise`);
  const quote = match[1] ?? '';
  lines[line - 1] = `${text.slice(0, column - 1)}${quote}${version}${quote}${text.slice(column - 1 + match[0].length)}`;
  await writeFile(doc.file, lines.join('\n'));
}
