/** `inClosure`: the bundled validators' bindings move into a function, the module's imports and exports stay. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inClosure } from '../../generator/emit/validators/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('inClosure', () => {
  it('keeps the imports and exports at the top level and every other binding in the function', () => {
    const esm = [
      'var helper = 1;',
      'import { formats } from "./formats.js";',
      'function validate1(data) { return data === helper && formats.ok(data); }',
      'var validateA = validate1;',
      'export {',
      '  validate1 as checkA,',
      '  validateA',
      '};',
      '',
    ].join('\n');
    expect(inClosure(esm)).toBe(
      [
        'import { formats } from "./formats.js";',
        'const { checkA, validateA } = /* @__PURE__ */ (() => {',
        'var helper = 1;',
        'function validate1(data) { return data === helper && formats.ok(data); }',
        'var validateA = validate1;',
        '',
        'return { checkA: validate1, validateA };',
        '})();',
        'export { checkA, validateA };',
        '',
      ].join('\n'),
    );
  });

  it('refuses an export or an import it does not understand', () => {
    expect(() => inClosure('export default 1;\n')).toThrow(/unexpected export/);
    expect(() => inClosure('export {\n  a.b\n};\n')).toThrow(/unexpected export/);
    expect(() => inClosure('import {\n  a\n} from "x";\n')).toThrow(/multi-line import/);
  });

  it('leaves the imports, one statement of bindings and the export at the top level of the committed modules', () => {
    for (const file of ['validators.raw.gen.ts', 'validators.events.raw.gen.ts']) {
      const lines = readFileSync(resolve(ROOT, 'generated/src', file), 'utf8')
        .trimEnd()
        .split('\n');
      const code = lines.filter((line) => !line.startsWith('//') && !line.startsWith('import '));
      expect(code[0], file).toMatch(/^const \{ .*validateServerEvent.* \} = \/\* @__PURE__ \*\/ \(\(\) => \{$/);
      expect(code.slice(-3, -1), file).toEqual([expect.stringMatching(/^return \{ /), '})();']);
      expect(code.at(-1), file).toMatch(/^export \{ .*validateServerEvent.* \};$/);
      expect(
        code.filter((line) => /^(export|import)\b/.test(line)),
        file,
      ).toHaveLength(1);
    }
  });
});
