import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asDiagnostics, checkParser, lintAsyncApi } from '../../generator/check/lint-asyncapi.mjs';
import { fixture, ROOT, SPEC } from './helpers.js';

/** The check's packages, the very copies `checkParser` uses (the bundle of generator/check/packages.cjs). */
interface CheckPackages {
  asyncapiParser: typeof import('@asyncapi/parser');
  spectralRulesetValidator: { createValidator: (format: string) => unknown } | undefined;
}
const { packages } = (await import(join(ROOT, 'generator/check/packages.mjs'))) as { packages: CheckPackages };
const { fromFile, Parser } = packages.asyncapiParser;

const work = mkdtempSync(join(tmpdir(), 'casi-lint-asyncapi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The rules of a parser's Spectral instance (a member its types keep to itself). */
function rulesOf(parser: object): { name: string; enabled: boolean; severity: number }[] {
  const { spectral } = parser as { spectral: { ruleset: { rules: Record<string, ReturnType<typeof rulesOf>[0]> } } };
  return Object.values(spectral.ruleset.rules);
}

/** The widgets fixture with an older AsyncAPI version and an unused schema: the parser has infos on it. */
function withInfos(): string {
  const widgets = fixture('widgets');
  copyFileSync(widgets.openapi, join(work, 'openapi.yaml'));
  const text = readFileSync(widgets.asyncapi, 'utf8')
    .replace('asyncapi: 3.1.0', 'asyncapi: 3.0.0')
    .replace('components:\n', 'components:\n  schemas:\n    Unused: {type: string}\n');
  const file = join(work, 'asyncapi.yaml');
  writeFileSync(file, text);
  return file;
}

describe('the AsyncAPI check', () => {
  it('reports the errors and warnings of the parser as shipped, on valid documents and one with infos', async () => {
    const infos = withInfos();
    const shipped = await fromFile(new Parser(), infos).validate();
    expect(shipped.filter((d) => d.severity > 1).length).toBeGreaterThan(0);
    for (const file of [infos, SPEC.asyncapi, fixture('widgets').asyncapi, fixture('streams').asyncapi]) {
      const stock = await fromFile(new Parser(), file).validate();
      expect(await lintAsyncApi(file)).toEqual(asDiagnostics(file, stock));
    }
  });

  it('turns off the rules whose findings it drops, and only those', () => {
    const rules = rulesOf(checkParser());
    const stock = new Map(rulesOf(new Parser()).map((r) => [r.name, r]));
    const turnedOff = rules.filter((r) => !r.enabled && stock.get(r.name)?.enabled).map((r) => r.name);
    expect(turnedOff).toEqual(rules.filter((r) => r.severity > 1 && stock.get(r.name)?.enabled).map((r) => r.name));
    expect(turnedOff).toContain('asyncapi-latest-version');
  });

  it("builds its parser without Spectral's ruleset validation, and leaves it in place for others", () => {
    const validation = packages.spectralRulesetValidator;
    if (!validation) throw new Error("spectral-core's ruleset validator is not where packages.cjs looks");
    const original = validation.createValidator;
    let calls = 0;
    validation.createValidator = (format) => {
      calls++;
      return original(format);
    };
    try {
      checkParser();
      expect(calls).toBe(0);
      // The same module is the one the parser validates its rulesets with.
      new Parser();
      expect(calls).toBeGreaterThan(0);
      // Where packages.cjs finds no such module (another layout of node_modules), the parser validates as shipped.
      calls = 0;
      packages.spectralRulesetValidator = undefined;
      expect(rulesOf(checkParser()).length).toBeGreaterThan(0);
      expect(calls).toBeGreaterThan(0);
    } finally {
      validation.createValidator = original;
      packages.spectralRulesetValidator = validation;
    }
  });

  it("builds its parser from rulesets that pass Spectral's validation", async () => {
    const { structureRules } = await import('../../generator/check/asyncapi-structure.mjs');
    expect(() => new Parser(structureRules())).not.toThrow();
    // The validation is in force there: a broken rule is refused.
    const refused = (() => {
      try {
        new Parser({ ruleset: { rules: { broken: { given: 1 } } } } as never);
      } catch (error) {
        return error as AggregateError;
      }
    })();
    expect(refused?.errors.map((e: Error) => e.message).join('\n')).toMatch(/must be a valid/);
  });
});
