/** `casi diff`: the changes between an older version of the documents (a folder or a git ref) and the current one. */
import { shownPath } from '../diagnostics.js';
import { type Base, readBase } from '../diff/base.js';
import { type Change, compareSpecs } from '../diff/compare.js';
import { changeLine, jsonReport } from '../diff/report.js';
import { loadSpecs, type SourceDocument } from '../load/index.js';
import { resolveOptions } from '../options.js';

export interface DiffArgs {
  readonly base: string;
  readonly openapi?: string | undefined;
  readonly asyncapi?: string | undefined;
  readonly failOn?: string | undefined;
  readonly json?: boolean | undefined;
}

/** Prints the changes; exit 1 with `--fail-on breaking` when one is breaking, else 0. */
export async function runDiff(args: DiffArgs): Promise<number> {
  const { changes } = await diffAgainst(args.base, args);
  if (args.json) process.stdout.write(jsonReport(changes));
  else {
    for (const change of changes) process.stdout.write(`${changeLine(change)}\n`);
    process.stdout.write(`${summary(changes)} against ${args.base}\n`);
  }
  return args.failOn === 'breaking' && changes.some((c) => c.kind === 'breaking') ? 1 : 0;
}

/** `2 breaking, 3 non-breaking changes`, or `no changes`. */
export function summary(changes: readonly Change[]): string {
  if (changes.length === 0) return 'no changes';
  const breaking = changes.filter((c) => c.kind === 'breaking').length;
  return `${breaking} breaking, ${changes.length - breaking} non-breaking change${changes.length === 1 ? '' : 's'}`;
}

/** The result of a comparison, with the document that carries the package version on each side. */
export interface Compared {
  readonly changes: Change[];
  /** The document whose `info.version` is the package's (the OpenAPI one when there is one), old and new. */
  readonly versioned: { readonly old: SourceDocument; readonly now: SourceDocument };
}

/** Compares the documents of `base` with the current ones that `args` names (or the defaults). */
export async function diffAgainst(
  base: string,
  args: { openapi?: string | undefined; asyncapi?: string | undefined },
): Promise<Compared> {
  const { openapi, asyncapi } = resolveOptions(args);
  let old: Base | undefined;
  try {
    old = await readBase(base, { openapi, asyncapi });
    const now = { ...(await loadSpecs(openapi, asyncapi)), shown: (file: string) => shownPath(file) };
    const kind = openapi === undefined ? 'asyncapi' : 'openapi';
    return { changes: compareSpecs(old.side, now), versioned: { old: old.side[kind], now: now[kind] } };
  } finally {
    await old?.close();
  }
}
