/**
 * The passes over the bundled ajv code: `withoutDeadState` drops the options object and the `evaluated` record the
 * specs' keywords never read, `inClosure` moves the bindings into a function (imports and exports stay).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inClosure } from '../../generator/emit/validators/closure.js';
import { withoutDeadState } from '../../generator/emit/validators/dead-state.js';

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

const OPTIONS = '{ instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {}';
const PASS_ON = 'rootData, dynamicAnchors';

describe('withoutDeadState', () => {
  const ajvCode = [
    `function validate2(data, ${OPTIONS}) {`,
    '  ;',
    '  const evaluated0 = validate2.evaluated;',
    '  if (evaluated0.dynamicProps) {',
    '    evaluated0.props = void 0;',
    '  }',
    '  if (evaluated0.dynamicItems) {',
    '    evaluated0.items = void 0;',
    '  }',
    `  if (!validate3(data.items[i0], { instancePath: instancePath + "/items/" + i0, parentData: data.items, parentDataProperty: i0, ${PASS_ON} })) {`,
    '    errors++;',
    '  }',
    `  if (!validate3(data, { instancePath, parentData, parentDataProperty, ${PASS_ON} })) {`,
    '    errors++;',
    '  }',
    '  evaluated0.props = props0;',
    '  return errors === 0;',
    '}',
    'validate2.evaluated = { "props": true, "dynamicProps": true, "dynamicItems": false };',
    '',
  ].join('\n');

  it('passes instancePath alone and drops the evaluated record', () => {
    expect(withoutDeadState(ajvCode)).toBe(
      [
        'function validate2(data, instancePath = "") {',
        '  ;',
        '  if (!validate3(data.items[i0], instancePath + "/items/" + i0)) {',
        '    errors++;',
        '  }',
        '  if (!validate3(data, instancePath)) {',
        '    errors++;',
        '  }',
        '  return errors === 0;',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps the evaluated record where unevaluatedProperties reads it', () => {
    const code = `${ajvCode}// schemaPath: "#/unevaluatedProperties"\n`;
    expect(withoutDeadState(code)).toContain('validate2.evaluated = {');
  });

  it('refuses code whose parameters or calls it does not recognise', () => {
    expect(() => withoutDeadState(`function validate1(data, { instancePath = "" } = {}) {}`)).toThrow(/parameters/);
    expect(() => withoutDeadState(ajvCode.replace(`${PASS_ON} })`, 'rootData, dynamicAnchors: {} })'))).toThrow(
      /options left/,
    );
  });
});
