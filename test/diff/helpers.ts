/** Our documents loaded once, and pairs of them made by one edit, compared in memory. */
import { relative } from 'node:path';
import { type Change, compareSpecs, type Side } from '../../generator/diff/compare.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { ROOT, SPEC } from '../generator/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: edits reach anywhere into parsed YAML
type Obj = Record<string, any>;

const shown = (file: string) => relative(ROOT, file);

/** spec/openapi.yaml and spec/asyncapi.yaml as read. */
export const OURS: Side = { ...(await loadSpecs(SPEC.openapi, SPEC.asyncapi)), shown };

/**
 * Our documents after `edit`, which changes copies of their values, written out as indented JSON (YAML too, one
 * member a line, so each change has its line; a hundred times faster to write than YAML block style).
 */
export function edited(edit: (openapi: Obj, asyncapi: Obj) => void, from: Side = OURS): Side {
  const openapi = structuredClone(from.openapi.value) as Obj;
  const asyncapi = structuredClone(from.asyncapi.value) as Obj;
  edit(openapi, asyncapi);
  return {
    openapi: parseSourceDocument(from.openapi.file, JSON.stringify(openapi, null, 2)),
    asyncapi: parseSourceDocument(from.asyncapi.file, JSON.stringify(asyncapi, null, 2)),
    shown,
  };
}

/** The changes from `before` to `after`, each as `kind action subject: what`. */
export function described(before: Side, after: Side): string[] {
  return compareSpecs(before, after).map(line);
}

export function line(c: Change): string {
  return `${c.kind} ${c.action} ${c.subject}: ${c.what}`;
}

/**
 * The changes from our documents to the edited ones (`forward`) and back (`backward`), each compared when first read
 * (a comparison of our documents takes a second or two).
 */
export function bothWays(edit: (openapi: Obj, asyncapi: Obj) => void): { forward: string[]; backward: string[] } {
  const after = edited(edit);
  let forward: string[] | undefined;
  let backward: string[] | undefined;
  return {
    get forward() {
      forward ??= described(OURS, after);
      return forward;
    },
    get backward() {
      backward ??= described(after, OURS);
      return backward;
    },
  };
}
