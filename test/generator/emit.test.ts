import { describe, expect, it } from 'vitest';
import { GENERATED_MARK } from '../../generator/emit/shared/files.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel, emitAll } from '../../generator/pipeline.js';
import { FIXTURES, fixture, SPEC } from './helpers.js';

/** Emitted files compared with committed snapshots (the runtime copies and the raw ajv output are left out). */
const SNAPSHOTTED = [
  'package.json',
  'src/client.gen.ts',
  'src/server.gen.ts',
  'src/types.gen.ts',
  'src/validators.gen.ts',
];

async function emit(spec: { openapi: string; asyncapi: string }) {
  const options = resolveOptions({ ...spec, out: '/nonexistent' });
  const { ir } = await buildModel(options);
  return emitAll(ir, options);
}

describe.each(FIXTURES)('emit: fixture %s', (name) => {
  it('matches the file snapshots', async () => {
    const files = await emit(fixture(name));
    for (const path of SNAPSHOTTED) {
      const file = files.find((f) => f.path === path);
      expect(file, path).toBeDefined();
      await expect(file?.content).toMatchFileSnapshot(`__snapshots__/${name}/${path}.snap`);
    }
  });
});

describe('emit: the real spec', () => {
  const first = emit(SPEC);

  it('is deterministic: a second run gives the same bytes', async () => {
    const [a, b] = [await first, await emit(SPEC)];
    expect(b.map((f) => f.path)).toEqual(a.map((f) => f.path));
    for (const [i, file] of a.entries()) expect(b[i]?.content === file.content, file.path).toBe(true);
  });

  it('opens every file with the header (but the LICENSE), ends with one LF, has no CR and no date of today', async () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const file of await first) {
      // The LICENSE is the MIT text as it is, which license detectors recognise.
      if (file.path !== 'LICENSE') expect(file.content.slice(0, 300), file.path).toContain(GENERATED_MARK);
      expect(file.content.endsWith('\n') && !file.content.endsWith('\n\n'), file.path).toBe(true);
      expect(file.content.includes('\r'), file.path).toBe(false);
      expect(file.content.includes(today), file.path).toBe(false);
    }
  });

  it('emits the four entry points and the runtime', async () => {
    const paths = (await first).map((f) => f.path);
    for (const entry of ['types', 'validators', 'client', 'server']) expect(paths).toContain(`src/${entry}.gen.ts`);
    expect(paths).toContain('src/runtime/shared/validation.ts');
    expect(paths.some((p) => p.startsWith('src/runtime/client/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('src/runtime/server/'))).toBe(true);
    expect(paths.some((p) => p.endsWith('.test.ts'))).toBe(false);
  });
});
