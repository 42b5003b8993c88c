/** Every JSON example of both specs compiles as a value of its generated TypeScript type (checked by `tsc`). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesOf, type Json, mediaTypes, messages, schemaName } from '../generated/spec.js';
import { ROOT, tsc } from './run-tsc.js';

/** One example and the generated type it must be assignable to. */
interface TypedExample {
  readonly label: string;
  readonly type: string;
  readonly value: Json | undefined;
}

function cases(): TypedExample[] {
  const rest = mediaTypes().flatMap(({ where, media }) =>
    examplesOf(media, where).map((c) => ({ label: c.where, type: String(schemaName(c.schema)), value: c.value })),
  );
  const events = messages().flatMap((m) =>
    m.examples.flatMap((e) => [
      { label: `${m.key} ${e.name} as ${m.key}`, type: m.key, value: e.payload },
      { label: `${m.key} ${e.name} as ${m.envelope}`, type: m.envelope, value: e.payload },
    ]),
  );
  return [...rest, ...events];
}

/** Examples the generated types are known to refuse (none: an entry turns its case into `it.fails`). */
const KNOWN_DEFECTS = new Set<string>();

const all = cases();
/** Compiler errors by case label. */
const errors = new Map<string, string[]>();
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'casi-types-'));
  const types = resolve(ROOT, 'generated/src/types.gen.js');
  const lines = [
    `import type * as t from ${JSON.stringify(types)};`,
    ...all.map((c, i) => `export const example${i}: t.${c.type} = ${JSON.stringify(c.value)};`),
  ];
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, 'examples.ts'), `${lines.join('\n')}\n`);
  const config = { extends: resolve(ROOT, 'tsconfig.json'), compilerOptions: { types: [] }, include: ['examples.ts'] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  const { output } = await tsc(['--noEmit', '--pretty', 'false', '-p', join(dir, 'tsconfig.json')]);
  for (const line of output.split('\n')) {
    const match = /examples\.ts\((\d+),\d+\): error (.*)$/.exec(line);
    const label = match ? all[Number(match[1]) - 2]?.label : undefined;
    if (label !== undefined) errors.set(label, [...(errors.get(label) ?? []), match?.[2] ?? '']);
    else if (/error TS/.test(line)) errors.set('(other)', [...(errors.get('(other)') ?? []), line]);
  }
}, 120_000);
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('spec examples as generated TypeScript values', () => {
  it('are found, and tsc reports nothing outside them', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(errors.get('(other)')).toBeUndefined();
    const labels = new Set(all.map((c) => c.label));
    expect(labels.size).toBe(all.length);
    for (const label of KNOWN_DEFECTS) expect(labels, `stale KNOWN_DEFECTS entry ${label}`).toContain(label);
  });

  for (const c of all) {
    const known = KNOWN_DEFECTS.has(c.label);
    (known ? it.fails : it)(`${c.label} is a ${c.type}${known ? ' (known generator defect)' : ''}`, () => {
      expect(errors.get(c.label) ?? []).toEqual([]);
    });
  }
});
