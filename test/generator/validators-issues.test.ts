/** `withIssueObjects`: the error objects of the bundled ajv code become issues `{ pointer, message, keyword }`. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  withErrorsDroppedByPop,
  withIssueObjects,
  withoutErrorListsInVerdicts,
  withoutPathsInVerdicts,
  withoutUnusedSchemas,
} from '../../generator/emit/validators/issues.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('withIssueObjects', () => {
  it('gives each error the pointer issuesFromAjv computes, without schemaPath and params', () => {
    const code = [
      'function validate1(data, instancePath = "") {',
      '  const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: "a/b~c" }, message: "must have required property \'a/b~c\'" };',
      '  const err1 = { instancePath: instancePath + "/payload", schemaPath: "#/p/required", keyword: "required", params: { missingProperty: "type" }, message: "must have required property \'type\'" };',
      '  const err2 = { instancePath, schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key0 }, message: "must NOT have additional properties" };',
      '  const err3 = { instancePath: instancePath + "/id", schemaPath: "#/properties/id/pattern", keyword: "pattern", params: { pattern: "^ev_[a-z]{2}$" }, message: \'must match pattern "^ev_[a-z]{2}$"\' };',
      '  validate1.errors = [{ instancePath, schemaPath: "#/discriminator", keyword: "discriminator", params: { error: "tag", tag: "type", tagValue: tag0 }, message: \'tag "type" must be string\' }];',
      '  const err4 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 }, message: "must have required property \'" + missing0 + "\'" };',
      '  if (data.x === void 0 && (missing0 = "x")) {}',
      '  const err5 = { instancePath, schemaPath: "#/enum", keyword: "enum", params: { allowedValues: schema3.enum }, message: "must be equal to one of the allowed values" };',
      '}',
    ].join('\n');
    const out = withIssueObjects(code).split('\n');
    expect(out[0]).toBe('function casiSegment(name) {');
    expect(out.slice(out.indexOf('}') + 1)).toEqual([
      'function validate1(data, instancePath = "") {',
      '  const err0 = { pointer: instancePath + "/a~1b~0c", message: "must have required property \'a/b~c\'", keyword: "required" };',
      '  const err1 = { pointer: instancePath + "/payload/type", message: "must have required property \'type\'", keyword: "required" };',
      '  const err2 = { pointer: instancePath + "/" + casiSegment(key0), message: "must NOT have additional properties", keyword: "additionalProperties" };',
      '  const err3 = { pointer: instancePath + "/id", message: \'must match pattern "^ev_[a-z]{2}$"\', keyword: "pattern" };',
      '  validate1.errors = [{ pointer: instancePath + "/type", message: \'tag "type" must be string\', keyword: "discriminator" }];',
      '  const err4 = { pointer: instancePath + "/" + missing0, message: "must have required property \'" + missing0 + "\'", keyword: "required" };',
      '  if (data.x === void 0 && (missing0 = "x")) {}',
      '  const err5 = { pointer: instancePath, message: "must be equal to one of the allowed values", keyword: "enum" };',
      '}',
    ]);
  });

  it('leaves a required member to escape at run time when one of its names needs it', () => {
    const code = [
      'if (data["a/b"] === void 0 && (missing0 = "a/b")) {',
      '  const err0 = { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: missing0 }, message: "m" };',
      '}',
    ].join('\n');
    expect(withIssueObjects(code)).toContain(
      '{ pointer: instancePath + "/" + casiSegment(missing0), message: "m", keyword: "required" }',
    );
  });

  it('makes the errors of the verdict-only module one shared object', () => {
    const code = [
      '// casi:full',
      'const err0 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };',
      '// casi:fast',
      'validate2.errors = [{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" }];',
      '',
    ].join('\n');
    const out = withIssueObjects(code, 'casi:fast').split('\n');
    expect(out[0]).toMatch(/^const casiRefused = \{ pointer: "", message: ".*", keyword: "check" \};$/);
    expect(out.slice(1)).toEqual([
      '// casi:full',
      'const err0 = { pointer: instancePath, message: "must be object", keyword: "type" };',
      '// casi:fast',
      'validate2.errors = [casiRefused];',
      '',
    ]);
  });

  it('refuses error objects and error reads it does not recognise', () => {
    const error = (rest: string) => `const e = { instancePath, schemaPath: "#/x", ${rest} };`;
    expect(() => withIssueObjects(error('keyword: kw, params: {}, message: "m"'))).toThrow(/computed keyword/);
    expect(() => withIssueObjects(error('keyword: "x", message: "m"'))).toThrow(/unexpected form/);
    expect(() => withIssueObjects(error('keyword: "required", params: {}, message: "m"'))).toThrow(
      /without missingProperty/,
    );
    expect(() =>
      withIssueObjects(error('keyword: "required", params: { missingProperty: a.b }, message: "m"')),
    ).toThrow(/unexpected expression/);
    expect(() => withIssueObjects('if (err0.instancePath === undefined) err0.instancePath = p;')).toThrow(
      /still read or built/,
    );
  });

  it('left no ajv error object in the committed modules', () => {
    for (const file of ['validators.raw.gen.ts', 'validators.events.raw.gen.ts']) {
      const code = readFileSync(resolve(ROOT, 'generated/src', file), 'utf8');
      expect(code, file).not.toMatch(/schemaPath|instancePath:|params: \{/);
      expect(code, file).toMatch(/\{ pointer: instancePath \+ "\/[a-z_]+", message: "[^"]+", keyword: "required" \}/);
    }
  });
});

describe('withErrorsDroppedByPop', () => {
  it('drops the errors of the alternatives tried by popping them, and refuses any other shortening', () => {
    expect(withErrorsDroppedByPop('if (_errs3) {\n  vErrors.length = _errs3;\n}')).toBe(
      'if (_errs3) {\n  while (vErrors.length > _errs3) vErrors.pop();\n}',
    );
    expect(() => withErrorsDroppedByPop('list.length = 0;')).toThrow(/shortened in an unexpected way/);
  });

  it('keeps the same errors as setting the length', () => {
    const code = withErrorsDroppedByPop('vErrors.length = _errs0;');
    for (const [length, kept] of [
      [3, 1],
      [2, 2],
      [4, 0],
    ]) {
      const vErrors = Array.from({ length: length as number }, (_, i) => i);
      new Function('vErrors', '_errs0', code)(vErrors, kept);
      expect(vErrors).toEqual(Array.from({ length: kept as number }, (_, i) => i));
    }
  });

  it('left no length set in the committed modules', () => {
    for (const file of ['validators.raw.gen.ts', 'validators.events.raw.gen.ts']) {
      const code = readFileSync(resolve(ROOT, 'generated/src', file), 'utf8');
      expect(code, file).not.toMatch(/\.length = /);
    }
  });
});

describe('withoutUnusedSchemas', () => {
  it('drops the schema values no code reads, and keeps the others', () => {
    const code = [
      'var schema1 = { "enum": ["a", "b"] };',
      'var schema12 = { "type": "string" };',
      'function validate1(data) { return schema1.enum.includes(data); }',
      '',
    ].join('\n');
    expect(withoutUnusedSchemas(code)).toBe(
      [
        'var schema1 = { "enum": ["a", "b"] };',
        'function validate1(data) { return schema1.enum.includes(data); }',
        '',
      ].join('\n'),
    );
  });

  it('left only schema values that are read in the committed modules', () => {
    for (const file of ['validators.raw.gen.ts', 'validators.events.raw.gen.ts']) {
      const code = readFileSync(resolve(ROOT, 'generated/src', file), 'utf8');
      for (const [, name] of code.matchAll(/^var (schema\d+) = /gm))
        expect(code.split(new RegExp(`\\b${name}\\b`)).length, `${file} ${name}`).toBeGreaterThan(2);
    }
  });
});

describe('withoutPathsInVerdicts', () => {
  const full = [
    '// casi:full',
    'function validate1(data, instancePath = "") {',
    '  if (!validate2(data.tools[i0], instancePath + "/tools/" + i0)) {}',
    '}',
  ];

  it('drops the instancePath the verdict-only functions pass to one another, and only theirs', () => {
    const code = [
      ...full,
      '// casi:fast',
      'function validate3(data, instancePath = "") {',
      '  if (!validate4(data, instancePath)) {}',
      '  if (!validate5(data[key1], instancePath + "/data/" + key1.replace(/~/g, "~0").replace(/\\//g, "~1"))) {}',
      '  if (!validate6(f(a, b), instancePath + "/x")) {}',
      '  validate3.errors = [casiRefused];',
      '}',
      '',
    ].join('\n');
    expect(withoutPathsInVerdicts(code, 'casi:fast').split('\n')).toEqual([
      ...full,
      '// casi:fast',
      'function validate3(data, instancePath = "") {',
      '  if (!validate4(data)) {}',
      '  if (!validate5(data[key1])) {}',
      '  if (!validate6(f(a, b))) {}',
      '  validate3.errors = [casiRefused];',
      '}',
      '',
    ]);
  });

  it('fails when the verdict-only functions use instancePath in another way', () => {
    const code = ['// casi:fast', 'function validate3(data, instancePath = "") {', '  return instancePath;', '}'];
    expect(() => withoutPathsInVerdicts(code.join('\n'), 'casi:fast')).toThrow(/instancePath still used/);
  });
});

describe('withoutErrorListsInVerdicts', () => {
  /** ajv's verdict-only code: a problem, a function called, an anyOf that passed after one alternative failed. */
  const check = [
    '// casi:fast',
    'function validate3(data) {',
    '  let vErrors = null;',
    '  let errors = 0;',
    '  const _errs0 = errors;',
    '  if (typeof data !== "object") {',
    '    const err0 = casiRefused;',
    '    if (vErrors === null) {',
    '      vErrors = [err0];',
    '    } else {',
    '      vErrors.push(err0);',
    '    }',
    '    errors++;',
    '  }',
    '  if (!validate4(data)) {',
    '    vErrors = vErrors === null ? validate4.errors : vErrors.concat(validate4.errors);',
    '    errors = vErrors.length;',
    '  }',
    '  if (data === 1) {',
    '    errors = _errs0;',
    '    if (vErrors !== null) {',
    '      if (_errs0) {',
    '        vErrors.length = _errs0;',
    '      } else {',
    '        vErrors = null;',
    '      }',
    '    }',
    '  }',
    '  validate3.errors = vErrors;',
    '  return errors === 0;',
    '}',
    '',
  ];

  it('counts the problems without listing them, and sets no errors', () => {
    expect(withoutErrorListsInVerdicts(check.join('\n'), 'casi:fast').split('\n')).toEqual([
      ...check.slice(0, 2),
      ...check.slice(3, 6),
      '    errors++;',
      '  }',
      '  if (!validate4(data)) {',
      '    errors++;',
      '  }',
      '  if (data === 1) {',
      '    errors = _errs0;',
      '  }',
      ...check.slice(-3),
    ]);
  });

  it('drops the shared refused error once nothing refers to it', () => {
    const error = '{ instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "m" }';
    const refusing = ['// casi:fast', 'function validate5(data) {', `  validate5.errors = [${error}];`, '}', ''];
    expect(withoutErrorListsInVerdicts(withIssueObjects(refusing.join('\n'), 'casi:fast'), 'casi:fast')).toBe(
      ['// casi:fast', 'function validate5(data) {', '}', ''].join('\n'),
    );
    const stillRead = `${withIssueObjects(refusing.join('\n'), 'casi:fast')}keep(casiRefused);\n`;
    expect(withoutErrorListsInVerdicts(stillRead, 'casi:fast')).toMatch(
      /^const casiRefused = [^\n]*\n\/\/ casi:fast\n/,
    );
  });

  it('gives the same verdicts', () => {
    const run = (code: string) =>
      new Function('casiRefused', 'validate4', `${code}\nreturn validate3;`)(
        {},
        Object.assign((data: unknown) => data !== 'no', { errors: [{}] }),
      ) as (data: unknown) => boolean;
    const before = run(check.join('\n'));
    const after = run(withoutErrorListsInVerdicts(check.join('\n'), 'casi:fast'));
    for (const value of [1, 'no', {}, 2, null]) expect(after(value), String(value)).toBe(before(value));
  });

  it('fails when the list is used in another way, and leaves the other modules alone', () => {
    const other = ['// casi:full', 'vErrors.splice(0);', ''].join('\n');
    expect(withoutErrorListsInVerdicts(other, 'casi:fast')).toBe(other);
    expect(() =>
      withoutErrorListsInVerdicts(['// casi:fast', 'vErrors.splice(0);', ''].join('\n'), 'casi:fast'),
    ).toThrow(/error list still used/);
  });
});
