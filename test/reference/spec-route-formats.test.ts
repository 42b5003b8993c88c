/** The routes `casi serve` compiles for any spec take every format quietly: unknown ones are annotations. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { modelOf } from '../../generator/check/index.js';
import { loadSpecs } from '../../generator/load/index.js';
import { createAjv } from '../../generator/schema/ajv.js';
import { specRoutes } from '../../reference/any-spec/routes.js';

const dir = mkdtempSync(join(tmpdir(), 'casi-route-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Formats', version: '1' },
  paths: {
    '/files/{id}': {
      put: {
        operationId: 'putFile',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          { name: 'x-trace', in: 'header', schema: { type: 'string', format: 'trace-id' } },
        ],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
            },
          },
        },
        responses: { '204': { description: 'stored' } },
      },
    },
  },
};

describe('casi serve: request parts with formats the runtime does not check', () => {
  it('compiles them without a warning on the console', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(DOCUMENT));
    const { ir } = modelOf(await loadSpecs(file, undefined));
    if (ir === undefined) throw new Error('the model was not built');
    const warn = vi.spyOn(console, 'warn');
    const log = vi.spyOn(console, 'log');
    const routes = specRoutes(ir, createAjv(ir, { standalone: false }));
    expect(routes.map((r) => r.operationId)).toEqual(['putFile']);
    expect([...warn.mock.calls, ...log.mock.calls].flat().join('\n')).not.toMatch(/unknown format/);
  });
});
