import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConsistency } from '../../generator/check/consistency.js';
import { checkSpecs, hasErrors } from '../../generator/check/index.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { fixture, SPEC } from './helpers.js';

const widgets = fixture('widgets');
const openapiText = readFileSync(widgets.openapi, 'utf8');
const asyncapiText = readFileSync(widgets.asyncapi, 'utf8');

/** The widgets fixture with a textual edit applied to one document. */
function edited(edit: { openapi?: (s: string) => string; asyncapi?: (s: string) => string }) {
  return {
    openapi: parseSourceDocument(widgets.openapi, (edit.openapi ?? ((s) => s))(openapiText)),
    asyncapi: parseSourceDocument(widgets.asyncapi, (edit.asyncapi ?? ((s) => s))(asyncapiText)),
  };
}

describe('check: cross-document consistency', () => {
  it('accepts the fixture and the real spec', async () => {
    const f = edited({});
    expect(checkConsistency(f.openapi, f.asyncapi)).toEqual([]);
    const real = await loadSpecs(SPEC.openapi, SPEC.asyncapi);
    expect(checkConsistency(real.openapi, real.asyncapi)).toEqual([]);
  });

  it.each([
    [
      'a payload without a message',
      {
        asyncapi: (s: string) =>
          s.replace(
            "payload: {$ref: './openapi.yaml#/components/schemas/WidgetChanged'}",
            "payload: {$ref: './openapi.yaml#/components/schemas/WidgetPing'}",
          ),
      },
      /WidgetChanged is in ServerEventPayload but no AsyncAPI message/,
    ],
    [
      'a message the union does not list',
      {
        openapi: (s: string) =>
          s.replace(
            "        - $ref: '#/components/schemas/WidgetChanged'\n",
            "        - $ref: '#/components/schemas/WidgetPing'\n",
          ),
      },
      /missing WidgetChanged in ServerEventPayload.oneOf \(the payload of message \w+\) \(casi check --fix adds it\)/,
    ],
    [
      'a payload without a constant type',
      { openapi: (s: string) => s.replace('type: {type: string, const: widget.changed}', 'type: {type: string}') },
      /WidgetChanged has no constant `type`/,
    ],
    [
      'a message with no known envelope',
      {
        asyncapi: (s: string) =>
          s.replace("./openapi.yaml#/components/schemas/ClientEvent'", "./openapi.yaml#/components/schemas/Widget'"),
      },
      /must extend ServerEvent or ClientEvent/,
    ],
  ])('reports %s with file and line', (_name, edit, message) => {
    const f = edited(edit);
    const diagnostics = checkConsistency(f.openapi, f.asyncapi);
    const hit = diagnostics.find((d) => message.test(d.message));
    expect(hit, JSON.stringify(diagnostics)).toBeDefined();
    expect(hit?.line).toBeGreaterThan(1);
    expect(hit?.severity).toBe('error');
  });
});

describe('check: validators', () => {
  it('finds no error in the real spec, and only the two justified warnings', async () => {
    const diagnostics = await checkSpecs(await loadSpecs(SPEC.openapi, SPEC.asyncapi));
    expect(hasErrors(diagnostics)).toBe(false);
    expect(diagnostics.map((d) => d.rule).sort()).toEqual([
      'redocly/no-unused-components',
      'redocly/operation-2xx-response',
    ]);
  });

  it('reports a reference into the OpenAPI document that names nothing at its $ref, not at the top', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'casi-ref-'));
    try {
      cpSync(dirname(SPEC.asyncapi), dir, { recursive: true });
      const asyncapi = join(dir, basename(SPEC.asyncapi));
      const text = readFileSync(asyncapi, 'utf8');
      const ref = "$ref: './openapi.yaml#/components/schemas/ServerEvent'";
      writeFileSync(asyncapi, text.replace(ref, "$ref: './openapi.yaml#/components/schemas/NoSuchThing'"));
      const line = text.slice(0, text.indexOf(ref)).split('\n').length;
      const diagnostics = await checkSpecs(await loadSpecs(join(dir, basename(SPEC.openapi)), asyncapi));
      const missing = diagnostics.find((d) => d.rule === 'asyncapi/invalid-ref');
      expect(missing).toMatchObject({ severity: 'error', file: asyncapi, line });
      expect(missing?.pointer).toMatch(/^\/components\/messages\/.+\/\$ref$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('check: Redocly failing on a valid document', () => {
  /** A 3.1 document whose schema requires a property Redocly trips over (`hasOwnProperty`). */
  const TEXT = [
    'openapi: 3.1.0',
    'info: {title: Names, version: 1.0.0}',
    'paths:',
    '  /flags:',
    '    get:',
    "      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Flags'}}}}}",
    'components:',
    '  schemas:',
    '    Flags: {type: object, required: [hasOwnProperty], properties: {hasOwnProperty: {type: boolean}}}',
    '',
  ].join('\n');

  it('is a warning that its style rules did not run, where no redocly.yaml sets them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'casi-redocly-'));
    try {
      const file = join(dir, 'names.openapi.yaml');
      writeFileSync(file, TEXT);
      const diagnostics = await checkSpecs(await loadSpecs(file, undefined));
      expect(hasErrors(diagnostics)).toBe(false);
      expect(diagnostics).toContainEqual(
        expect.objectContaining({
          severity: 'warning',
          rule: 'casi/openapi',
          line: 1,
          message: expect.stringMatching(/^Redocly's style rules could not run on the document: .*hasOwnProperty/),
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
