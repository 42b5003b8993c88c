/** `withoutNeedlessUnicodeFlag`: a pattern loses the `u` flag only where it matches the same strings without it. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameWithoutUnicodeFlag, withoutNeedlessUnicodeFlag } from '../../generator/emit/validators/patterns.js';
import { random } from '../generated/random.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Characters that tell the two modes apart when a pattern lets them: astral, lone surrogates, odd spaces. */
const TRICKY = ['😀', '\u{10000}', '\uD83D', '\uDE00', '\u3000', '\uFEFF', '\u00e9', '\n', ' ', '\u212A', '\u017F'];

/** Strings close to `source`'s matches: pieces of its literal characters, digits and letters, and `TRICKY`. */
function stringsFor(source: string, next: () => number, count: number): string[] {
  const alphabet = [...new Set([...source.replace(/[\\^$()[\]{}|*+?]/g, ''), ...'aZ09_-+@', ...TRICKY])];
  const out: string[] = [''];
  for (let n = 0; n < count; n++) {
    const length = Math.floor(next() * 24);
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return out;
}

/** Strings that match with `u`, each also with a tricky character put in at every position. */
function aroundMatches(pattern: RegExp, strings: string[]): string[] {
  return strings
    .filter((s) => pattern.test(s))
    .flatMap((s) =>
      TRICKY.flatMap((c) => Array.from({ length: s.length + 1 }, (_, i) => s.slice(0, i) + c + s.slice(i))),
    );
}

/** Every string value of both specs (ids, phone numbers, timestamps of the examples). */
function specStrings(): string[] {
  const text = ['spec/openapi.yaml', 'spec/asyncapi.yaml']
    .map((f) => readFileSync(resolve(ROOT, f), 'utf8'))
    .join('\n');
  return [...new Set([...text.matchAll(/[A-Za-z0-9_+@.:-]{3,}/g)].map((m) => m[0]))];
}

/** The verdicts of `source` on `strings` that differ between the two modes. */
function differences(source: string, strings: string[]): string[] {
  const unicode = new RegExp(source, 'u');
  const plain = new RegExp(source, '');
  return strings.filter((s) => unicode.test(s) !== plain.test(s));
}

describe('sameWithoutUnicodeFlag', () => {
  it("accepts the specs' patterns", () => {
    for (const source of [
      '^ev_[A-Za-z0-9]+$',
      '^(ca|pa)_[A-Za-z0-9]+@v[0-9]+$',
      '^pa_[A-Za-z0-9]+(@v[0-9]+)?$',
      '^\\+[1-9][0-9]{6,14}$',
      '^[A-Za-z0-9_-]+$',
    ])
      expect(sameWithoutUnicodeFlag(source), source).toBe(true);
  });

  it('refuses what could match differently, or what it does not read', () => {
    for (const source of [
      '^.+$',
      '^.{1,3}$',
      '^\\p{L}+$',
      '^[^a]$',
      '^\\D$',
      '^\\S{2}$',
      '^\\W$',
      '^a\\b$',
      '^a|b$',
      'ab',
      '^ab',
      'ab$',
      '^(?=a)a$',
      '^(?<n>a)$',
      '^(a)\\1$',
      '^\\u{1F600}$',
      '^\\u0041$',
      '^é$',
      '^😀$',
      '^[😀]$',
      '^[a-é]$',
      '^a{2$',
      '^(a$',
      '^a)$',
      '^*a$',
    ])
      expect(sameWithoutUnicodeFlag(source), source).toBe(false);
  });

  it('accepts only patterns that match the same strings in both modes (random patterns of its form)', () => {
    const next = random(20261122);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const atoms = [
      'a',
      'Z',
      '0',
      '_',
      '-',
      '@',
      ' ',
      '\\d',
      '\\w',
      '\\s',
      '\\.',
      '\\+',
      '[a-z]',
      '[A-Z0-9_]',
      '[\\s-]',
    ];
    const piece = (depth: number): string => {
      const atom =
        depth < 2 && next() < 0.25
          ? `(${next() < 0.5 ? '?:' : ''}${sequence(depth + 1)}|${sequence(depth + 1)})`
          : pick(atoms);
      return atom + pick(['', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '+?']);
    };
    const sequence = (depth: number): string =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => piece(depth)).join('');
    for (let n = 0; n < 300; n++) {
      const source = `^${sequence(0)}$`;
      expect(sameWithoutUnicodeFlag(source), source).toBe(true);
      const strings = stringsFor(source, next, 200);
      const all = [...strings, ...aroundMatches(new RegExp(source, 'u'), strings)];
      expect(differences(source, all), source).toEqual([]);
    }
  });
});

describe('the patterns built without the u flag in the committed modules', () => {
  const built = ['validators.raw.gen.ts', 'validators.events.raw.gen.ts'].flatMap((file) =>
    [
      ...readFileSync(resolve(ROOT, 'generated/src', file), 'utf8').matchAll(/new RegExp\(("(?:[^"\\]|\\.)*"), ""\)/g),
    ].map((m) => JSON.parse(m[1] as string) as string),
  );

  it('are every pattern of the modules', () => {
    expect(built.length).toBeGreaterThan(10);
    for (const file of ['validators.raw.gen.ts', 'validators.events.raw.gen.ts'])
      expect(readFileSync(resolve(ROOT, 'generated/src', file), 'utf8')).not.toMatch(/new RegExp\([^)]*"u"\)/);
  });

  it('give the same verdict with and without the flag on the spec strings and strings made to tell them apart', () => {
    const next = random(7);
    const spec = specStrings();
    for (const source of new Set(built)) {
      const strings = [...spec, ...stringsFor(source, next, 2000)];
      const all = [...strings, ...aroundMatches(new RegExp(source, 'u'), strings)];
      expect(
        all.some((s) => new RegExp(source, 'u').test(s)),
        source,
      ).toBe(true);
      expect(differences(source, all), source).toEqual([]);
    }
  });

  it('keep the flag on a pattern that needs it', () => {
    expect(withoutNeedlessUnicodeFlag('var pattern1 = new RegExp("^.{1,3}$", "u");')).toBe(
      'var pattern1 = new RegExp("^.{1,3}$", "u");',
    );
    expect(withoutNeedlessUnicodeFlag('var pattern2 = new RegExp("^a_[0-9]+$", "u");')).toBe(
      'var pattern2 = new RegExp("^a_[0-9]+$", "");',
    );
  });
});
