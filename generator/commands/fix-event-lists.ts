/** `casi check --fix`: adds what this service's event lists lack to the YAML documents, in place. */
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { eventListFixes } from '../check/event-lists.js';
import { appendEntries } from '../check/yaml-append.js';
import { InputError } from '../diagnostics.js';
import type { ReadSpecs } from '../load/index.js';
import type { SourceDocument } from '../load/source-map.js';

/**
 * Edits the documents, planning from `docs` as the check read them (before bundling), and prints one line per added
 * entry; returns how many were added.
 */
export async function fixEventLists(docs: ReadSpecs): Promise<number> {
  if (docs.openapi.absent || docs.asyncapi.absent) return 0;
  const fixes = eventListFixes(docs.openapi, docs.asyncapi);
  for (const kind of ['openapi', 'asyncapi'] as const) {
    const mine = fixes.filter((fix) => fix.document === kind);
    if (mine.length === 0) continue;
    const doc: SourceDocument = docs[kind];
    if (/^\s*[{[]/.test(doc.text))
      throw new InputError(
        `${doc.file}: check --fix edits YAML documents only; add by hand: ${mine.map((f) => f.entry).join('; ')}`,
      );
    let edited: string;
    try {
      edited = appendEntries(
        doc.text,
        mine.map((fix) => fix.append),
      );
    } catch (error) {
      throw new InputError(`${doc.file}: check --fix cannot edit it: ${(error as Error).message}`);
    }
    await writeFile(doc.file, edited);
    for (const fix of mine) process.stdout.write(`${relative(process.cwd(), doc.file)}: added ${fix.entry}\n`);
  }
  return fixes.length;
}
