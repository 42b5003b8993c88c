/**
 * `casi conformance` on specs other than this service's: a server with planted faults (each found and named with
 * its `curl` replay, in the summary, the JSON and the JUnit XML) and `casi serve`'s mock of a corpus document.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './lint.js';
import { PLANTED_TOKEN, startPlantedServer } from './planted/server.js';
import { conformanceInProcess, runCasi, startMock } from './run-casi.js';

const PLANTED_SPEC = join(ROOT, 'test/conformance/planted/openapi.yaml');
const CORPUS = join(ROOT, '../shared/spec-corpus');

interface JsonRun {
  readonly passed: boolean;
  readonly checks: { check: string; cases: number; failed: number }[];
  readonly failures: { check: string; operation: string; problem: string; replay?: string }[];
}

let out: string;
let planted: { app: FastifyInstance; url: string };

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'casi-conformance-'));
  planted = await startPlantedServer();
});
afterAll(async () => {
  await planted.app.close();
  rmSync(out, { recursive: true, force: true });
});

describe('casi conformance against a server with planted faults', () => {
  let run: { code: number; stdout: string; stderr: string };
  let json: JsonRun;

  beforeAll(async () => {
    const files = ['--json', join(out, 'planted.json'), '--junit', join(out, 'planted.xml')];
    const auth = ['--auth', `bearer:${PLANTED_TOKEN}`];
    const target = ['--openapi', PLANTED_SPEC, '--base-url', planted.url, '--runs', '10', '--seed', '3'];
    run = await conformanceInProcess([...target, ...auth, ...files]);
    json = JSON.parse(readFileSync(join(out, 'planted.json'), 'utf8')) as JsonRun;
  }, 60_000);

  it('exits 1 and finds each fault on its operation, with a curl replay that names the server', () => {
    expect(run.code).toBe(1);
    const found = (check: string, operation: string) =>
      json.failures.find((f) => f.check === check && f.operation === operation);
    for (const [check, operation, method, path] of [
      ['not_a_server_error', 'getItem', 'GET', '/items/'],
      ['response_schema_conformance', 'listItems', 'GET', '/items'],
      ['negative_data_rejection', 'createItem', 'POST', '/items'],
    ] as const) {
      const failure = found(check, operation);
      expect(failure, `${check} ${operation}`).toBeDefined();
      expect(failure?.replay).toMatch(new RegExp(`^curl -i -X ${method} '${planted.url}${path}`));
      expect(run.stdout).toContain(`REPLAY ${check} ${operation}: curl -i -X ${method} '${planted.url}${path}`);
    }
    expect(found('negative_data_rejection', 'createItem')?.problem).toMatch(/not refused with a 4xx: 200/);
    // The link from createItem's answer to getItem names the item made, which the server does not find.
    expect(found('link_sequence', 'getItem')?.problem).toMatch(
      /^the linked request names nothing \(404\): createItem → readItem: GET \/items\/1 /,
    );
    expect(found('link_sequence', 'getItem')?.replay).toBe(`curl -i -X GET '${planted.url}/items/1'`);
  });

  it('shrinks a failing generated request before its replay: the smallest id that fails, no optional parameter', () => {
    // Generated ids fail from 2 up (1 is the item createItem made, a 404); `limit` is optional on listItems.
    expect(run.stdout).toContain(`REPLAY not_a_server_error getItem: curl -i -X GET '${planted.url}/items/2'\n`);
    expect(run.stdout).toContain(
      `REPLAY response_schema_conformance listItems: curl -i -X GET '${planted.url}/items'\n`,
    );
    expect(run.stdout).toMatch(/^FAIL not_a_server_error getItem: \(shrunk\) a server error: 500: GET \/items\/2 /m);
  });

  it('finds nothing wrong where nothing was planted (the bearer token of --auth on the secured operation)', () => {
    expect(json.failures.filter((f) => f.operation === 'health')).toEqual([]);
    expect(json.failures.filter((f) => f.operation === 'listItems' && f.check === 'negative_data_rejection')).toEqual(
      [],
    );
    expect(run.stdout).toMatch(/^negative_data_rejection\s+\d+\s+\d+\s+[1-9]\d*\s+0$/m);
    expect(run.stderr).toContain('[4/4]');
  });

  it('writes JUnit XML that parses and lists each failing operation as a failed testcase', () => {
    const text = readFileSync(join(out, 'planted.xml'), 'utf8');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    }).parse(text);
    const failed = (doc.testsuites.testsuite as { testcase: { '@_name': string; failure?: unknown }[] }[])
      .flatMap((suite) => suite.testcase)
      .filter((c) => c.failure !== undefined)
      .map((c) => c['@_name']);
    expect(failed).toEqual(
      expect.arrayContaining([
        'not_a_server_error getItem',
        'response_schema_conformance listItems',
        'negative_data_rejection createItem',
      ]),
    );
    expect(failed.some((name) => name.endsWith(' health'))).toBe(false);
  });
});

describe('casi conformance against casi serve of corpus documents', () => {
  // The mock keeps no state: the create → read → … → delete sequences of petstore, museum and petstore3 are left out
  // with a note (tictactoe's resources are related by a link instead).
  const STATELESS = 'crud sequences left out: no resource created twice read back both times as sent';
  it.each([
    ['petstore-expanded.openapi.json', '[4/4] findPets', [], true],
    ['museum.openapi.yaml', '[1/', [], true],
    ['tictactoe.openapi.yaml', 'followed 1 link(s)', ['link_sequence'], false],
    ['swagger-petstore3.openapi.yaml', '[18/18]', [], true],
  ])(
    '%s: runs every operation to the end and finds nothing wrong with the mock',
    async (name, progress, more, crud) => {
      const spec = join(CORPUS, name);
      const server = await startMock({ openapi: spec });
      try {
        const file = join(out, `${name}.json`);
        const run = await conformanceInProcess([
          '--openapi',
          spec,
          '--base-url',
          server.url,
          '--runs',
          '10',
          '--seed',
          '5',
          '--json',
          file,
        ]);
        const json = JSON.parse(readFileSync(file, 'utf8')) as JsonRun;
        expect(run.stderr).toContain(progress);
        expect(run.stderr.includes(STATELESS)).toBe(crud);
        expect(json.checks.map((c) => c.check)).not.toContain('crud_sequence');
        // Refused requests are answered in the spec's own error shape (petstore's `default` Error has an integer code).
        expect(json.failures).toEqual([]);
        expect(json.checks.find((c) => c.check === 'negative_data_rejection')?.cases).toBeGreaterThan(0);
        for (const check of ['response_schema_conformance', ...more])
          expect(json.checks.find((c) => c.check === check)?.cases, check).toBeGreaterThan(0);
        expect(run.code).toBe(0);
      } finally {
        await server.app.close();
      }
    },
    60_000,
  );
});

describe('casi conformance usage', () => {
  it('exits 2 with one line at the $ref when a document refers to nothing (no linter needed)', async () => {
    const file = join(out, 'dangling.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info: {title: t, version: "1"}',
        'paths:',
        '  /a:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        "              schema: {$ref: '#/components/schemas/Nope'}",
        '',
      ].join('\n'),
    );
    const run = await conformanceInProcess(['--openapi', file, '--base-url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^casi: cannot check against these documents: .*dangling\.yaml:11:\d+ error #\/components\/schemas\/Nope points to nothing/,
      ),
    ]);
  }, 30_000);

  it('exits 2 with one line when nothing answers at --base-url', async () => {
    const closed = await startPlantedServer();
    await closed.app.close();
    const run = await conformanceInProcess(['--openapi', PLANTED_SPEC, '--base-url', closed.url, '--runs', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(
      /^casi: no answer from --base-url http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
  }, 60_000);

  it('exits 2 with one line for a bad --auth, a bad --runs and another spec without --base-url', async () => {
    for (const [args, message] of [
      [['--auth', 'token:x', '--base-url', 'http://127.0.0.1:9'], '--auth "token:x" is not one of'],
      [['--runs', '0', '--base-url', 'http://127.0.0.1:9'], '--runs must be a positive integer'],
      [[], 'name the server to check with --base-url URL'],
    ] as const) {
      const run = await runCasi(['conformance', '--openapi', PLANTED_SPEC, ...args]);
      expect(run.code, message).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
    }
  }, 60_000);
});
