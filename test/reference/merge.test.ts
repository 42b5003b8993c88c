/** `deepMerge` (override_config): objects merge member by member, arrays and scalars replace, inputs untouched. */
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../reference/merge.js';

describe('deepMerge', () => {
  it.each([
    ['absent override keeps the base', { a: 1 }, undefined, { a: 1 }],
    ['scalars replace', { a: 1, b: 2 }, { b: 3 }, { a: 1, b: 3 }],
    ['nested objects merge', { v: { x: 1, y: 2 } }, { v: { y: 9 } }, { v: { x: 1, y: 9 } }],
    ['arrays replace, never concatenate', { list: [1, 2, 3] }, { list: [4] }, { list: [4] }],
    ['null replaces', { s: 'office' }, { s: null }, { s: null }],
    ['undefined members are skipped', { a: 1 }, { a: undefined }, { a: 1 }],
    ['an object replaces a scalar', { a: 1 }, { a: { b: 2 } }, { a: { b: 2 } }],
    ['new members are added', { a: 1 }, { c: { d: true } }, { a: 1, c: { d: true } }],
    [
      'a realistic override',
      {
        voice: { ambient_sound: null, boosted_keywords: ['a'] },
        language: { default_language: 'English', supported_languages: ['English'] },
      },
      { voice: { ambient_sound: 'office' }, language: { supported_languages: ['English', 'Spanish'] } },
      {
        voice: { ambient_sound: 'office', boosted_keywords: ['a'] },
        language: { default_language: 'English', supported_languages: ['English', 'Spanish'] },
      },
    ],
  ])('%s', (_name, base, override, expected) => {
    const baseCopy = structuredClone(base);
    const overrideCopy = structuredClone(override);
    expect(deepMerge(base, override)).toEqual(expected);
    expect(base).toEqual(baseCopy);
    expect(override).toEqual(overrideCopy);
  });

  it('returns a copy that shares nothing with its inputs', () => {
    const base = { v: { list: [1] } };
    const merged = deepMerge(base, {});
    merged.v.list.push(2);
    expect(base.v.list).toEqual([1]);
  });
});
