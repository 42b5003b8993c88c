/** Runs `tsc` on test/types (the `*.typecheck.ts` files and generated/src): a wrong `@ts-expect-error` fails here. */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tsc } from './run-tsc.js';

describe('type tests', () => {
  it('compile with no error, every @ts-expect-error used', { timeout: 120_000 }, async () => {
    const { code, output } = await tsc(['--noEmit', '-p', 'test/types/tsconfig.json', '--listFilesOnly']);
    expect(code, output).toBe(0);
    const listed = output.split('\n').map((line) => line.trim());
    const files = readdirSync(import.meta.dirname).filter((name) => name.endsWith('.typecheck.ts'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const name of [...files.map((f) => `test/types/${f}`), 'generated/src/server.gen.ts']) {
      expect(listed, `${name} is not part of the type tests`).toContain(resolve(ROOT, name));
    }
    const checked = await tsc(['--noEmit', '-p', 'test/types/tsconfig.json']);
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toBe('');
  });
});
