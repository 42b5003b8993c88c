/**
 * The raw validator modules do not depend on where dependencies live: ajv's code imports the helpers it requires from
 * the package's own runtime, so a checkout whose node_modules is a link, or a workspace with hoisted packages,
 * generates the same bytes, and the package runs without ajv.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('the raw validator modules', () => {
  it.each(['validators.raw.gen.ts', 'validators.checks.raw.gen.ts', 'validators.events.raw.gen.ts'])(
    '%s name no path on disk',
    (file) => {
      const text = readFileSync(join(ROOT, 'generated/src', file), 'utf8');
      expect(text).not.toMatch(/node_modules/);
      expect(text).not.toContain(ROOT);
      expect(text).toContain("import { ajvRuntime as require } from './runtime/shared/ajv-runtime.js';");
      expect(text).not.toMatch(/\bimport\b[^;]*\bfrom ['"]ajv/);
    },
  );
});
