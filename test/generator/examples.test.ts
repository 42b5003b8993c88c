import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkExamples } from '../../generator/check/examples.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { createAjv } from '../../generator/schema/ajv.js';
import { casi, fixture, ROOT, SPEC } from './helpers.js';

const widgets = fixture('widgets');
const openapiText = readFileSync(widgets.openapi, 'utf8');
const asyncapiText = readFileSync(widgets.asyncapi, 'utf8');

const work = mkdtempSync(join(tmpdir(), 'casi-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The widgets fixture with `edit` applied to its OpenAPI text and `editAsyncapi` to its AsyncAPI text. */
function edited(edit: (text: string) => string, editAsyncapi: (text: string) => string = (t) => t) {
  const text = edit(openapiText);
  const asyncText = editAsyncapi(asyncapiText);
  expect(text !== openapiText || asyncText !== asyncapiText).toBe(true);
  return {
    openapi: parseSourceDocument(widgets.openapi, text),
    asyncapi: parseSourceDocument(widgets.asyncapi, asyncText),
  };
}

/** The example findings for the widgets fixture with `edit` applied to its OpenAPI text. */
function findings(edit: (text: string) => string) {
  const specs = edited(edit);
  return checkExamples(specs, buildIr(specs), 'error');
}

/** The example findings for the widgets fixture with `edit` applied to its AsyncAPI text. */
function messageFindings(edit: (text: string) => string) {
  const specs = edited((t) => t, edit);
  return checkExamples(specs, buildIr(specs), 'error');
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  expect(at, needle).toBeGreaterThanOrEqual(0);
  return text.slice(0, at).split('\n').length;
}

/** A copy of the real specs in a folder of its own under `work`, with the edits applied; the paths of both. */
function specCopy(name: string, edits: { openapi?: (t: string) => string; asyncapi?: (t: string) => string }) {
  const dir = join(work, name);
  cpSync(join(ROOT, 'spec'), dir, { recursive: true });
  const files = { openapi: join(dir, 'openapi.yaml'), asyncapi: join(dir, 'asyncapi.yaml') };
  for (const part of ['openapi', 'asyncapi'] as const) {
    const edit = edits[part];
    if (!edit) continue;
    const before = readFileSync(files[part], 'utf8');
    const after = edit(before);
    expect(after, `${name}: the ${part} edit changes nothing`).not.toBe(before);
    writeFileSync(files[part], after);
  }
  return { dir, ...files };
}

describe('check: media type examples against their schemas', () => {
  it('accepts every example of the real spec and of the fixtures', async () => {
    for (const pair of [SPEC, widgets, fixture('streams'), fixture('split')]) {
      const specs = await loadSpecs(pair.openapi, pair.asyncapi);
      expect(checkExamples(specs, buildIr(specs), 'error')).toEqual([]);
    }
  });

  it('reports a request example of the wrong type at the member, with its line', () => {
    const found = findings((t) => t.replace('one: {value: {name: Bolt}}', 'one: {value: {name: 7}}'));
    expect(found).toEqual([
      {
        severity: 'error',
        file: widgets.openapi,
        line: 32,
        column: 35,
        pointer: '/paths/~1widgets/post/requestBody/content/application~1json/examples/one/value/name',
        message: 'Example value must conform to the schema: must be string, got 7.',
        rule: 'casi/valid-example',
      },
    ]);
  });

  it('reports each problem of a response example: a missing member and one the schema does not allow', () => {
    const found = findings((t) =>
      t.replace('one: {value: {id: w_1, name: Bolt}}', 'one: {value: {id: w_1, colour: red}}'),
    );
    expect(found.map((d) => [d.line, d.pointer, d.message])).toEqual([
      [
        40,
        '/paths/~1widgets/post/responses/200/content/application~1json/examples/one/value/name',
        "Example value must conform to the schema: must have required property 'name'.",
      ],
      [
        40,
        '/paths/~1widgets/post/responses/200/content/application~1json/examples/one/value/colour',
        'Example value must conform to the schema: must NOT have additional properties.',
      ],
    ]);
  });

  it('checks a single `example`, an inline schema and an example behind a $ref, where the value is', () => {
    const found = findings((t) =>
      t
        .replace(
          "schema: {$ref: '#/components/schemas/Error'}",
          'schema: {type: object, required: [code], properties: {code: {type: string}}}\n          example: {code: 4}',
        )
        .replace('one: {value: {name: Bolt}}', "one: {$ref: '#/components/examples/Long'}")
        .replace('components:\n', 'components:\n  examples:\n    Long: {value: {name: abcdefghijklmnopqrstuvwxyz}}\n'),
    );
    expect(found.map((d) => [d.pointer, d.message])).toEqual([
      [
        '/components/examples/Long/value/name',
        'Example value must conform to the schema: must NOT have more than 20 characters.',
      ],
      [
        '/components/responses/Problem/content/application~1json/example/code',
        'Example value must conform to the schema: must be string, got 4.',
      ],
    ]);
    for (const d of found) expect([d.severity, d.line > 0]).toEqual(['error', true]);
  });

  it('leaves documents whose schemas ajv refuses to the document validators', () => {
    const broken = (t: string) => t.replace('required: [id, name]', 'required: name');
    const specs = {
      openapi: parseSourceDocument(widgets.openapi, broken(openapiText)),
      asyncapi: parseSourceDocument(widgets.asyncapi, asyncapiText),
    };
    expect(() => createAjv(buildIr(specs), { standalone: false })).toThrow(/schema is invalid/);
    expect(findings(broken)).toEqual([]);
  });
});

describe('check: AsyncAPI message examples against their schemas', () => {
  it('reports a payload of the wrong types at each member, once, as errors with the line of the example', () => {
    const edit = (t: string) =>
      t.replace('- payload: {id: e_1, payload: {type: widget.changed, name: Bolt}}', '- payload: {id: 42, payload: 5}');
    const line = lineOf(edit(asyncapiText), '{id: 42, payload: 5}');
    expect(messageFindings(edit)).toEqual([
      {
        severity: 'error',
        file: widgets.asyncapi,
        line,
        column: 25,
        pointer: '/components/messages/WidgetChangedEvent/examples/0/payload/id',
        message: 'Example value must conform to the schema: must be string, got 42.',
        rule: 'casi/valid-example',
      },
      {
        severity: 'error',
        file: widgets.asyncapi,
        line,
        column: 38,
        pointer: '/components/messages/WidgetChangedEvent/examples/0/payload/payload',
        message: 'Example value must conform to the schema: must be object, got 5.',
        rule: 'casi/valid-example',
      },
    ]);
  });

  it('reports a payload that is not an object, and a payload that misses what its message narrows it to', () => {
    const found = messageFindings((t) =>
      t.replace(
        '- payload: {id: e_1, payload: {type: widget.changed, name: Bolt}}',
        "- payload: 'just a string'\n        - payload: {id: e_2, payload: {type: widget.changed}}",
      ),
    );
    expect(found.map((d) => [d.severity, d.pointer, d.message])).toEqual([
      [
        'error',
        '/components/messages/WidgetChangedEvent/examples/0/payload',
        'Example value must conform to the schema: must be object, got "just a string".',
      ],
      [
        'error',
        '/components/messages/WidgetChangedEvent/examples/1/payload/payload/name',
        "Example value must conform to the schema: must have required property 'name'.",
      ],
    ]);
  });

  it("checks an example's headers against the message's headers, and the examples of a message written in a channel", () => {
    const found = messageFindings((t) =>
      t
        .replace(
          "                payload: {$ref: './openapi.yaml#/components/schemas/WidgetPing'}",
          [
            "                payload: {$ref: './openapi.yaml#/components/schemas/WidgetPing'}",
            '      headers:',
            '        type: object',
            '        required: [trace]',
            '        properties: {trace: {type: string}}',
            '      examples:',
            '        - headers: {trace: 7}',
            '          payload: {payload: {type: widget.ping}}',
            '        - headers: {trace: t_1}',
            '          payload: {payload: {type: widget.pong}}',
          ].join('\n'),
        )
        .replace(
          "        $ref: '#/components/messages/WidgetPingEvent'\n",
          [
            "        $ref: '#/components/messages/WidgetPingEvent'",
            '      WidgetNote:',
            '        payload: {$ref: "#/components/schemas/Note"}',
            '        examples:',
            '          - payload: {note: 1}',
            '',
          ].join('\n'),
        )
        .replace(
          'components:\n',
          'components:\n  schemas:\n    Note: {type: object, required: [note], properties: {note: {type: string}}}\n',
        ),
    );
    expect(found.map((d) => [d.severity, d.pointer, d.message])).toEqual([
      [
        'error',
        '/components/messages/WidgetPingEvent/examples/0/headers/trace',
        'Example value must conform to the schema: must be string, got 7.',
      ],
      [
        'error',
        '/components/messages/WidgetPingEvent/examples/1/payload/payload/type',
        'Example value must conform to the schema: "widget.pong" is not a known "type".',
      ],
      [
        'error',
        '/components/messages/WidgetPingEvent/examples/1/payload/payload/type',
        'Example value must conform to the schema: must be "widget.ping", got "widget.pong".',
      ],
      [
        'error',
        '/channels/widgetSession/messages/WidgetNote/examples/0/payload/note',
        'Example value must conform to the schema: must be string, got 1.',
      ],
    ]);
    for (const d of found) expect(d.line).toBeGreaterThan(1);
  });

  it('warns at an example whose schema it cannot know, and checks nothing where a message declares no schema', () => {
    const found = messageFindings((t) =>
      t
        .replace(
          'schemaFormat: application/schema+json;version=draft-07',
          'schemaFormat: application/vnd.apache.avro;version=1.9.0',
        )
        .replace(
          "        $ref: '#/components/messages/WidgetPingEvent'\n",
          "        $ref: '#/components/messages/WidgetPingEvent'\n      Anything: {examples: [{payload: 1, headers: 2}]}\n",
        ),
    );
    expect(found.map((d) => [d.severity, d.pointer, d.message])).toEqual([
      [
        'warning',
        '/components/messages/WidgetChangedEvent/examples/0/payload',
        'Example not checked: its schema format application/vnd.apache.avro;version=1.9.0 is not JSON Schema.',
      ],
    ]);
  });
});

describe('check: an example that breaks its schema is an error where the project sets its rules', () => {
  it('is a warning, like every style finding, without a redocly.yaml beside the OpenAPI document', async () => {
    const conversation =
      /( {4}Conversation:\n {6}summary: [^\n]*\n {6}value:\n(?: {8}[^\n]*\n)*? {8}status: )completed/;
    const copy = specCopy('no-rules', {
      openapi: (t) =>
        t
          .replace(conversation, '$1bogus_status')
          .replace(/( {8}default: 20\n {6}example: )50/, '$1500')
          .replace(/\n {6}summary: List conversations\n/, '\n'),
    });
    rmSync(join(copy.dir, 'redocly.yaml'));
    const checked = await casi(['check', '--openapi', copy.openapi, '--asyncapi', copy.asyncapi]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(' 0 error(s)');
    expect(checked.stderr).toMatch(/ warning Example value must conform to the schema: .*\(casi\/valid-example\)/);
    expect(checked.stderr).toMatch(/ warning .*\(redocly\/no-invalid-parameter-examples\)/);
    expect(checked.stderr).toMatch(/ warning .*\(redocly\/operation-summary\)/);
  }, 60_000);

  it('casi check and generate exit 1 on broken message examples of the real spec, at their lines', async () => {
    const started = /( {10}payload: \{"id": )"ev_1Ab7Kq1Wm"(.*?"payload": )\{"type": "conversation\.started"\}\}/;
    const ended = /( {10}payload: )\{"id": "ev_2Ab4Kq2Wm".*\}\}/;
    const delta = /("generation_id": "gen_4Ws7Yx2Cv")\}\}/;
    const copy = specCopy('messages', {
      asyncapi: (t) =>
        t
          .replace(started, (_all, head: string, middle: string) => `${head}42${middle}5}`)
          .replace(ended, "$1'just a string'")
          .replace(delta, '$1, "bogus": 1}}'),
    });
    const text = readFileSync(copy.asyncapi, 'utf8');
    const args = ['--openapi', copy.openapi, '--asyncapi', copy.asyncapi];
    const checked = await casi(['check', ...args]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('4 error(s)');
    for (const [needle, at, message] of [
      ['"id": 42', 'ConversationStartedEvent/examples/0/payload/id', 'must be string, got 42'],
      ['"id": 42', 'ConversationStartedEvent/examples/0/payload/payload', 'must be object, got 5'],
      ["'just a string'", 'ConversationEndedEvent/examples/0/payload', 'must be object, got "just a string"'],
      ['"bogus": 1', 'AgentMessageDeltaEvent/examples/0/payload/payload/bogus', 'must NOT have additional properties'],
    ] as const) {
      const line = `asyncapi.yaml:${lineOf(text, needle)}:\\d+ error Example value must conform to the schema: ${message}\\. \\(casi/valid-example\\) at #/components/messages/${at}\n`;
      expect(checked.stderr).toMatch(new RegExp(line));
    }
    const generated = await casi(['generate', ...args, '--out', join(copy.dir, 'out')]);
    expect(generated.code).toBe(1);
    expect(existsSync(join(copy.dir, 'out'))).toBe(false);
  }, 60_000);

  it('casi check and generate exit 1 on a broken component example and a broken parameter example of the real spec', async () => {
    const conversation =
      /( {4}Conversation:\n {6}summary: [^\n]*\n {6}value:\n(?: {8}[^\n]*\n)*? {8}status: )completed/;
    const copy = specCopy('openapi-examples', {
      openapi: (t) => t.replace(conversation, '$1bogus_status').replace(/( {8}default: 20\n {6}example: )50/, '$1500'),
    });
    const text = readFileSync(copy.openapi, 'utf8');
    const args = ['--openapi', copy.openapi, '--asyncapi', copy.asyncapi];
    const checked = await casi(['check', ...args]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('2 error(s)');
    expect(checked.stderr).toMatch(
      new RegExp(
        `openapi\\.yaml:${lineOf(text, 'bogus_status')}:\\d+ error Example value must conform to the schema: must be one of .*, got "bogus_status"\\. \\(casi/valid-example\\) at #/components/examples/Conversation/value/status\n`,
      ),
    );
    expect(checked.stderr).toMatch(
      new RegExp(
        `openapi\\.yaml:${lineOf(text, 'example: 500')}:\\d+ error .*\\(redocly/no-invalid-parameter-examples\\) at #/components/parameters/Limit/example\n`,
      ),
    );
    const generated = await casi(['generate', ...args, '--out', join(copy.dir, 'out')]);
    expect(generated.code).toBe(1);
    expect(existsSync(join(copy.dir, 'out'))).toBe(false);
  }, 60_000);
});
