/**
 * Real documents written elsewhere (the shared spec corpus, read in place): each against itself with one edit
 * reports exactly that edit, at the line where it is written; with only descriptions changed, nothing.
 */
import { readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareSpecs, type Side } from '../../generator/diff/compare.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument, toPointer } from '../../generator/load/source-map.js';
import { ROOT } from '../generator/helpers.js';
import { line } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: edits reach anywhere into parsed YAML
type Obj = Record<string, any>;

const CORPUS = resolve(ROOT, '../shared/spec-corpus');
const FILES = readdirSync(CORPUS).filter((f) => /\.(openapi|asyncapi)\.(ya?ml|json)$/.test(f));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The document alone, as `casi diff --openapi F` or `--asyncapi F` reads it. */
async function read(file: string): Promise<{ side: Side; kind: 'openapi' | 'asyncapi' }> {
  const kind = file.includes('.openapi.') ? 'openapi' : 'asyncapi';
  const path = resolve(CORPUS, file);
  const specs = await loadSpecs(kind === 'openapi' ? path : undefined, kind === 'asyncapi' ? path : undefined);
  return { side: { ...specs, shown: basename }, kind };
}

/** `side` with its document of `kind` changed by `edit`. */
function edited(side: Side, kind: 'openapi' | 'asyncapi', edit: (doc: Obj) => void): Side {
  const value = structuredClone(side[kind].value) as Obj;
  edit(value);
  return { ...side, [kind]: parseSourceDocument(side[kind].file, stringify(value)) };
}

/** Appends to every description, anywhere in the document. */
function describeAnew(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, member] of Object.entries(value as Obj)) {
    if (key === 'description' && typeof member === 'string') (value as Obj)[key] = `${member} (reworded)`;
    else describeAnew(member);
  }
}

describe.each(FILES)('%s', (file) => {
  it('against itself with every description reworded reports nothing', { timeout: 120_000 }, async () => {
    const { side, kind } = await read(file);
    expect(compareSpecs(side, edited(side, kind, describeAnew)).map(line)).toEqual([]);
  });

  if (file.includes('.openapi.')) {
    it('without its first operation reports that removal, where it was', { timeout: 120_000 }, async () => {
      const { side } = await read(file);
      const root = Object.keys(side.openapi.value.paths ?? {}).length > 0 ? 'paths' : 'webhooks';
      const [path, item] = Object.entries(side.openapi.value[root] as Obj)[0] as [string, Obj];
      const method = METHODS.find((m) => item[m] !== undefined) as string;
      const changes = compareSpecs(
        side,
        edited(side, 'openapi', (doc) => {
          delete doc[root][path][method];
        }),
      );
      const subject = root === 'paths' ? `${method.toUpperCase()} ${path}` : `webhook ${path} ${method.toUpperCase()}`;
      expect(changes.map(line)).toEqual([`breaking removed ${subject}: operation`]);
      expect(changes[0]?.file).toBe(file);
      expect(changes[0]?.line).toBe(side.openapi.locate(toPointer([root, path, method])).line);
    });

    it('with a new optional query parameter reports that addition', { timeout: 120_000 }, async () => {
      const { side } = await read(file);
      const root = Object.keys(side.openapi.value.paths ?? {}).length > 0 ? 'paths' : 'webhooks';
      const [path, item] = Object.entries(side.openapi.value[root] as Obj)[0] as [string, Obj];
      const method = METHODS.find((m) => item[m] !== undefined) as string;
      const after = edited(side, 'openapi', (doc) => {
        const operation = doc[root][path][method];
        operation.parameters = [...(operation.parameters ?? []), { name: 'casi_probe', in: 'query', schema: {} }];
      });
      const subject = root === 'paths' ? `${method.toUpperCase()} ${path}` : `webhook ${path} ${method.toUpperCase()}`;
      expect(compareSpecs(side, after).map(line)).toEqual([
        `non-breaking added ${subject}: parameter casi_probe (query)`,
      ]);
    });
  } else {
    it('with a new channel reports that addition, where it is', { timeout: 120_000 }, async () => {
      const { side } = await read(file);
      const v3 = String(side.asyncapi.value.asyncapi).startsWith('3.');
      const after = edited(side, 'asyncapi', (doc) => {
        doc.channels.casiProbe = v3 ? { address: '/casi/probe' } : {};
      });
      const changes = compareSpecs(side, after);
      const address = v3 ? '/casi/probe' : 'casiProbe';
      expect(changes.map(line)).toEqual([`non-breaking added channel ${address}: channel`]);
      expect(changes[0]?.line).toBe(after.asyncapi.locate('/channels/casiProbe').line);
    });
  }
});
