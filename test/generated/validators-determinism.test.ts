/**
 * The raw validator modules do not depend on where dependencies live: the ajv helpers bundled into them are named
 * by specifier, so a checkout whose node_modules is a link, or a workspace with hoisted packages, generates the same
 * bytes (issue: esbuild's comments held the path of node_modules/ajv as resolved on disk).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('the raw validator modules', () => {
  it.each(['validators.raw.gen.ts', 'validators.events.raw.gen.ts'])('%s name no path on disk', (file) => {
    const text = readFileSync(join(ROOT, 'generated/src', file), 'utf8');
    expect(text).not.toMatch(/node_modules/);
    expect(text).not.toContain(ROOT);
    expect(text).toMatch(/^\/\/ package:ajv\/dist\/runtime\/ucs2length$/m);
  });
});
