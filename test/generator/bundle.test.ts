import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../generator/diagnostics.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs, valueAt } from '../../generator/load/index.js';
import { resolveOptions } from '../../generator/options.js';
import { buildModel, emitAll } from '../../generator/pipeline.js';
import { fixture, SPEC } from './helpers.js';

const split = fixture('split');
const widgets = fixture('widgets');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the split fixture with `edit` applied to its OpenAPI document and `files` written beside it. */
function variant(edit: (openapi: string) => string, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'casi-bundle-'));
  dirs.push(dir);
  cpSync(join(split.openapi, '..'), dir, { recursive: true });
  const openapi = join(dir, 'openapi.yaml');
  const text = edit(readFileSync(openapi, 'utf8'));
  writeFileSync(openapi, text);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { openapi, asyncapi: join(dir, 'asyncapi.yaml'), text };
}

async function emit(spec: { openapi: string; asyncapi: string }) {
  const options = resolveOptions({ ...spec, out: '/nonexistent' });
  return emitAll((await buildModel(options)).ir, options);
}

describe('load: schemas in files of their own', () => {
  it('give the same package as the same schemas written in the OpenAPI document', async () => {
    const [fromFiles, inline] = [await emit(split), await emit(widgets)];
    expect(fromFiles.map((f) => f.path)).toEqual(inline.map((f) => f.path));
    for (const [i, file] of inline.entries()) expect(fromFiles[i]?.content === file.content, file.path).toBe(true);
  });

  it('become component schemas; other referenced values take the place of their $ref', async () => {
    const { openapi, asyncapi } = await loadSpecs(split.openapi, split.asyncapi);
    const schemas = valueAt(openapi.value, '/components/schemas') as Record<string, unknown>;
    expect(schemas.Widget).toMatchObject({ required: ['id', 'name'] });
    expect(schemas.WidgetChanged).toMatchObject({ required: ['type', 'name'] });
    expect(valueAt(openapi.value, '/components/schemas/ServerEventPayload/oneOf/0')).toEqual({
      $ref: '#/components/schemas/WidgetChanged',
    });
    expect(valueAt(openapi.value, '/components/schemas/ServerEventPayload/discriminator/mapping')).toEqual({
      'widget.changed': '#/components/schemas/WidgetChanged',
    });
    expect(valueAt(openapi.value, '/components/parameters/ServiceVersion')).toMatchObject({
      name: 'Service-Version',
      schema: { $ref: '#/components/schemas/ServiceVersion' },
    });
    expect(
      valueAt(asyncapi.value, '/components/messages/WidgetChangedEvent/payload/schema/allOf/1/properties/payload'),
    ).toEqual({ $ref: './openapi.yaml#/components/schemas/WidgetChanged' });
  });

  it('points a discriminator mapping to a whole file at the component it became', async () => {
    const spec = variant((s) =>
      s.replace("widget.changed: './schemas/events.yaml#/WidgetChanged'", "widget.changed: './schemas/Widget.yaml'"),
    );
    const specs = await loadSpecs(spec.openapi, spec.asyncapi);
    expect(valueAt(specs.openapi.value, '/components/schemas/ServerEventPayload/discriminator/mapping')).toEqual({
      'widget.changed': '#/components/schemas/Widget',
    });
  });

  it('reads a file that only a discriminator mapping names, and names one it cannot read', async () => {
    const mapped = (file: string) =>
      variant((s) => s.replace("widget.changed: './schemas/events.yaml#/WidgetChanged'", `widget.changed: '${file}'`), {
        'Mapped.yaml': 'type: object\n',
      });
    const good = mapped('./Mapped.yaml');
    const read = await loadSpecs(good.openapi, good.asyncapi);
    expect(valueAt(read.openapi.value, '/components/schemas/Mapped')).toEqual({ type: 'object' });
    const spec = mapped('./Unmapped.yaml');
    const found = await loadSpecs(spec.openapi, spec.asyncapi).catch((e: InputError) => e.diagnostics);
    expect(found).toMatchObject([
      { file: spec.openapi, message: expect.stringMatching(/^`\$ref: \.\/Unmapped\.yaml` cannot be read: /) },
    ]);
  });

  it('follows a $ref under a property named like a keyword, and leaves one inside an example or a default', async () => {
    const spec = variant((s) =>
      s.replace(
        '        name: {type: string, maxLength: 20}',
        "        name: {type: string, maxLength: 20}\n        default: {$ref: './schemas/Widget.yaml'}\n        example: {type: object, default: {$ref: './nowhere.yaml'}, example: {$ref: './nowhere.yaml'}}",
      ),
    );
    const { openapi } = await loadSpecs(spec.openapi, spec.asyncapi);
    const properties = valueAt(openapi.value, '/components/schemas/CreateWidgetRequest/properties');
    expect(properties).toMatchObject({
      default: { $ref: '#/components/schemas/Widget' },
      example: { default: { $ref: './nowhere.yaml' }, example: { $ref: './nowhere.yaml' } },
    });
  });

  it('places what is in a schema from another file in that file', async () => {
    const { openapi } = await loadSpecs(split.openapi, split.asyncapi);
    expect(openapi.locate('/components/schemas/WidgetChanged/properties/name')).toEqual({
      file: join(split.openapi, '../schemas/events.yaml'),
      pointer: '/WidgetChanged/properties/name',
      line: 7,
      column: 11,
    });
    expect(openapi.locate('/components/schemas/Widget/required')).toMatchObject({
      file: join(split.openapi, '../schemas/Widget.yaml'),
      line: 3,
    });
    expect(openapi.locate('/components/schemas/Error').file).toBeUndefined();
  });

  it('leaves documents without references to other files as they were read', async () => {
    const specs = await loadSpecs(widgets.openapi, widgets.asyncapi);
    expect(specs.openapi.value.openapi).toBe('3.1.0');
    expect(JSON.stringify(specs.openapi.value)).not.toContain('.yaml');
  });
});

describe('load: references that cannot be bundled', () => {
  async function problems(spec: { openapi: string; asyncapi: string }) {
    const error = await loadSpecs(spec.openapi, spec.asyncapi).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).diagnostics;
  }

  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('names a missing file at its $ref: file, line and pointer', async () => {
    const spec = variant((s) => s.replace("{$ref: './schemas/Widget.yaml'}", "{$ref: './schemas/Gadget.yaml'}"));
    const [only, ...rest] = await problems(spec);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      severity: 'error',
      file: spec.openapi,
      line: lineOf(spec.text, 'Gadget.yaml'),
      pointer: '/components/schemas/Widget/$ref',
      rule: 'references',
    });
    expect(only?.message).toMatch(/^`\$ref: \.\/schemas\/Gadget\.yaml`: cannot read .*Gadget\.yaml/);
  });

  it('refuses a URL', async () => {
    const spec = variant((s) =>
      s.replace("{$ref: './schemas/Widget.yaml'}", "{$ref: 'https://example.com/Widget.yaml'}"),
    );
    const found = await problems(spec);
    expect(found.map((d) => [d.line, d.pointer])).toEqual([
      [lineOf(spec.text, 'example.com'), '/components/schemas/Widget/$ref'],
    ]);
    expect(found[0]?.message).toBe('`$ref: https://example.com/Widget.yaml` is a URL; casi reads local files only');
  });

  it('names a pointer to nothing', async () => {
    const spec = variant((s) =>
      s.replace("- $ref: './schemas/events.yaml#/WidgetChanged'", "- $ref: './schemas/events.yaml#/Nope'"),
    );
    const found = await problems(spec);
    expect(found.map((d) => [d.line, d.pointer])).toEqual([
      [lineOf(spec.text, 'events.yaml#/Nope'), '/components/schemas/ServerEventPayload/oneOf/0/$ref'],
    ]);
    expect(found[0]?.message).toMatch(/points to nothing in .*schemas\/events\.yaml/);
  });

  it('refuses a schema whose name is taken, and goes on to report every such reference', async () => {
    const spec = variant(
      (s) =>
        s
          .replace(
            '        name: {type: string, maxLength: 20}',
            "        name: {type: string, maxLength: 20}\n        problem: {$ref: './Error.yaml'}",
          )
          .replace("      schema: {$ref: '#/components/schemas/Widget'}", "      schema: {$ref: './Error.yaml'}"),
      { 'Error.yaml': 'type: object\n' },
    );
    const found = await problems(spec);
    expect(found.map((d) => d.pointer)).toEqual([
      '/paths/~1widgets/post/responses/200/content/application~1json/schema/$ref',
      '/components/schemas/CreateWidgetRequest/properties/problem/$ref',
    ]);
    for (const d of found)
      expect(d.message).toMatch(
        /would become the component schema Error, which is taken by .*openapi\.yaml#\/components\/schemas\/Error; rename one/,
      );
  });

  it("reads the AsyncAPI document's references to its OpenAPI document in the one given, wherever that is", async () => {
    // The real spec's OpenAPI document alone, edited, elsewhere; the AsyncAPI document stays in spec/.
    const dir = mkdtempSync(join(tmpdir(), 'casi-bundle-'));
    dirs.push(dir);
    const openapi = join(dir, 'openapi.yaml');
    writeFileSync(
      openapi,
      readFileSync(SPEC.openapi, 'utf8').replace(/^info:\n {2}title: .*$/m, 'info:\n  title: Edited'),
    );
    const specs = await loadSpecs(openapi, SPEC.asyncapi);
    const refs = JSON.stringify(specs.asyncapi.value).match(/"\$ref":"[^"#]+#/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    expect(new Set(refs)).toEqual(new Set([`"$ref":"${relative(dirname(SPEC.asyncapi), openapi)}#`]));
    expect(buildIr(specs).title).toBe('Edited');
  });

  it("refuses a schema file's reference into an OpenAPI document other than the one given", async () => {
    const spec = variant((s) => s);
    // Another OpenAPI document beside the spec's folder.
    const elsewhere = `${dirname(spec.openapi)}-elsewhere`;
    dirs.push(elsewhere);
    cpSync(widgets.openapi, join(elsewhere, 'openapi.yaml'));
    const intoElsewhere = `../../${basename(elsewhere)}/openapi.yaml#/components/schemas/Error`;
    writeFileSync(join(spec.openapi, '../schemas/Widget.yaml'), `allOf: [{$ref: '${intoElsewhere}'}]\n`);
    const found = await problems(spec);
    expect(found).toMatchObject([
      {
        file: join(spec.openapi, '../schemas/Widget.yaml'),
        message: expect.stringContaining(', an OpenAPI document other than the one given ('),
      },
    ]);
  });

  it('refuses a cycle of inlined values', async () => {
    const spec = variant((s) => s, {
      'schemas/parameters.yaml': "ServiceVersion: {$ref: '#/Again'}\nAgain: {$ref: '#/ServiceVersion'}\n",
    });
    const found = await problems(spec);
    expect(found.map((d) => [d.file, d.line, d.pointer])).toEqual([
      [join(spec.openapi, '../schemas/parameters.yaml'), 2, '/Again/$ref'],
    ]);
    expect(found[0]?.message).toMatch(
      /refers to itself \(through .*parameters\.yaml#\/ServiceVersion, .*parameters\.yaml#\/Again\)/,
    );
  });

  it('gives the file:line of a YAML error in a referenced file', async () => {
    const spec = variant((s) => s, { 'schemas/Widget.yaml': 'type: object\nrequired: [id\n' });
    const found = await problems(spec);
    expect(found[0]?.file).toBe(join(spec.openapi, '../schemas/Widget.yaml'));
    expect(found[0]?.line).toBeGreaterThan(1);
  });
});
