/** A schema the validators' ajv cannot compile is an error at the document and place that hold it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelOf } from '../../generator/check/index.js';
import { checkSchemasCompile } from '../../generator/check/schemas.js';
import { loadSpecs } from '../../generator/load/index.js';

const dir = mkdtempSync(join(tmpdir(), 'casi-schema-compiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The schema-compiles diagnostics of one AsyncAPI document alone. */
async function asyncapiAlone(text: string) {
  const file = join(dir, 'asyncapi.yaml');
  writeFileSync(file, text);
  const specs = await loadSpecs(undefined, file);
  const { ir } = modelOf(specs);
  if (ir === undefined) throw new Error('the model was not built');
  return { file, found: checkSchemasCompile(specs, ir) };
}

const DOCUMENT = [
  'asyncapi: 3.0.0',
  'info: {title: Bad pattern, version: 1.0.0}',
  'channels:',
  '  feed:',
  '    address: /feed',
  '    messages:',
  "      tick: {$ref: '#/components/messages/tick'}",
  'operations:',
  '  onTick:',
  '    action: receive',
  "    channel: {$ref: '#/channels/feed'}",
  'components:',
  '  messages:',
  '    tick:',
  '      payload:',
  '        type: object',
  "        properties: {code: {type: string, pattern: '(['}}",
].join('\n');

describe('check: schemas that cannot be compiled', () => {
  it('places a message payload of an AsyncAPI document alone in that document, at the message', async () => {
    const { file, found } = await asyncapiAlone(DOCUMENT);
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'error',
        file,
        line: 15,
        pointer: '/components/messages/tick',
        rule: 'casi/schema-compiles',
        message: expect.stringMatching(/tick cannot be compiled: Invalid regular expression/),
      }),
    ]);
  });
});
