/** The generated validators bundle for browsers with no `require` and no code generation, and load under Node ESM. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { type BuildOptions, build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Validator } from '../../generated/src/validators.gen.js';
import { ROOT } from './spec.js';

const ENTRY = resolve(ROOT, 'generated/src/validators.gen.ts');

/** A valid server event, and the same event with `livemode` of the wrong type. */
const validEvent = {
  id: 'ev_5Ab5Kq5Wm',
  created_at: '2025-07-02T14:00:05.000Z',
  agent_id: 'ca_7Qk2Lm9Xa@v1',
  livemode: true,
  conversation_id: 'conv_9Xr4Tb2Kp',
  experimental: false,
  payload: { type: 'agent.message.delta', text_delta: 'Your order ', generation_id: 'gen_4Ws7Yx2Cv' },
};
const invalidEvent = { ...validEvent, livemode: 'yes' };

/** Bundles the validators module for the browser, minified. */
async function bundle(format: 'esm' | 'iife'): Promise<string> {
  const options: BuildOptions = {
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    platform: 'browser',
    format,
    write: false,
    logLevel: 'silent',
    ...(format === 'iife' ? { globalName: 'casiValidators' } : {}),
  };
  const result = await build(options);
  expect(result.warnings).toEqual([]);
  return result.outputFiles?.[0]?.text ?? '';
}

/** The calls and constructions of `require`, `Function` and `eval` in a script (string literals do not count). */
function dynamicCode(code: string): string[] {
  const source = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === 'require' || name === 'Function' || name === 'eval') {
        found.push(node.getText(source).slice(0, 60));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The two validators the checks below use, as the bundle exports them. */
interface BundledValidators {
  readonly validateServerEvent: Validator<unknown>;
  readonly validateClientEvent: Validator<unknown>;
}

function expectValidatesEvents(bundled: BundledValidators): void {
  expect(bundled.validateServerEvent(validEvent)).toBe(true);
  expect(bundled.validateServerEvent.errors).toBeNull();
  expect(bundled.validateServerEvent(invalidEvent)).toBe(false);
  // The issues cross the realm boundary as plain data: compare them through JSON.
  expect(JSON.parse(JSON.stringify(bundled.validateServerEvent.errors))).toEqual([
    { pointer: '/livemode', message: 'must be boolean, got "yes"', keyword: 'type' },
  ]);
  expect(bundled.validateClientEvent({ payload: { type: 'user.message.send', text: 'Hi' } })).toBe(true);
}

describe('browser bundle of generated/src/validators.gen.ts', () => {
  let esm = '';
  let tempDir = '';

  beforeAll(async () => {
    esm = await bundle('esm');
    tempDir = mkdtempSync(join(tmpdir(), 'casi-bundle-'));
  });
  afterAll(() => {
    if (tempDir !== '') rmSync(tempDir, { recursive: true, force: true });
  });

  it('finds require, eval and Function calls in code, but not in strings', () => {
    const code = 'require("a"); x.require("b"); const s = "require(1)"; new Function("return 1"); eval("1")';
    expect(dynamicCode(code)).toEqual(['require("a")', 'new Function("return 1")', 'eval("1")']);
  });

  it('calls no require and builds no function from a string', () => {
    expect(esm.length).toBeGreaterThan(0);
    expect(dynamicCode(esm)).toEqual([]);
    expect(esm).not.toMatch(/\bnew Function\b/);
  });

  it('validates a valid and an invalid ServerEvent in a realm with no require, no process and no eval', async () => {
    const script = await bundle('iife');
    const sandbox: Record<string, unknown> = {};
    // `codeGeneration.strings: false` makes `eval` and `new Function` throw, like a strict Content-Security-Policy.
    const context = createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
    expect(runInContext('typeof require + " " + typeof process + " " + typeof module', context)).toBe(
      'undefined undefined undefined',
    );
    expect(() => runInContext('new Function("return 1")', context)).toThrow();
    runInContext(script, context, { filename: 'validators.bundle.js' });
    expectValidatesEvents(sandbox.casiValidators as BundledValidators);
  });

  it('loads as an ES module on its own', async () => {
    const file = join(tempDir, 'validators.bundle.mjs');
    writeFileSync(file, esm);
    expectValidatesEvents((await import(/* @vite-ignore */ pathToFileURL(file).href)) as BundledValidators);
  });
});

describe('generated/src/validators.gen.ts under Node ESM', () => {
  it('imports and validates', async () => {
    const module = (await import('../../generated/src/validators.gen.js')) as unknown as BundledValidators;
    expectValidatesEvents(module);
  });
});
