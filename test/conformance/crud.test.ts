/**
 * `crud_sequence` of `casi conformance` on a spec without links (`crud/books.yaml`): a server that keeps its books
 * passes every step, one whose updates and deletes do not hold has both found with their replays, and the stateless
 * mock of the same spec gets no sequence at all (a note says why).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookFaults, startBooksServer } from './crud/server.js';
import { ROOT } from './lint.js';
import { conformanceInProcess, startMock } from './run-casi.js';

const BOOKS = join(ROOT, 'test/conformance/crud/books.yaml');

interface JsonRun {
  readonly checks: { check: string; cases: number; failed: number }[];
  readonly failures: { check: string; operation: string; problem: string; replay?: string }[];
}

let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'casi-crud-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Runs the command against `url`; its exit code, outputs, JSON and JUnit failures. */
async function check(url: string, name: string) {
  const files = ['--json', join(out, `${name}.json`), '--junit', join(out, `${name}.xml`)];
  const run = await conformanceInProcess([
    '--openapi',
    BOOKS,
    '--base-url',
    url,
    '--runs',
    '5',
    '--seed',
    '4',
    ...files,
  ]);
  const json = JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8')) as JsonRun;
  const doc = new XMLParser({
    ignoreAttributes: false,
    isArray: (tag) => tag === 'testsuite' || tag === 'testcase',
  }).parse(readFileSync(join(out, `${name}.xml`), 'utf8'));
  const suites = doc.testsuites.testsuite as {
    '@_name': string;
    testcase: { '@_name': string; failure?: unknown }[];
  }[];
  const crud = suites.find((s) => s['@_name'].includes('crud_sequence'))?.testcase ?? [];
  return { ...run, json, crudCases: crud.map((c) => `${c['@_name']}${c.failure === undefined ? '' : ' FAILED'}`) };
}

async function withBooks<T>(faults: BookFaults, body: (url: string) => Promise<T>): Promise<T> {
  const server = await startBooksServer(faults);
  try {
    return await body(server.url);
  } finally {
    await server.app.close();
  }
}

describe('crud_sequence on a spec without links', () => {
  it('passes every step against a server that keeps its books: read back, update visible, listed, deleted', async () => {
    const run = await withBooks({}, (url) => check(url, 'correct'));
    expect(run.json.failures).toEqual([]);
    expect(run.json.checks.find((c) => c.check === 'crud_sequence')).toEqual(
      expect.objectContaining({ cases: 4, failed: 0 }),
    );
    expect(run.crudCases.sort()).toEqual([
      'crud_sequence deleteBook',
      'crud_sequence listBooks',
      'crud_sequence readBook',
      'crud_sequence updateBook',
    ]);
    expect(run.stdout).toMatch(/^crud_sequence\s+4\s+4\s+0\s+0$/m);
    expect(run.code).toBe(0);
  }, 60_000);

  it('finds an update that is not visible and a delete that leaves the book readable, each with its replay', async () => {
    const { run, url } = await withBooks({ hideUpdates: true, keepDeleted: true }, async (url) => ({
      run: await check(url, 'planted'),
      url,
    }));
    expect(run.code).toBe(1);
    const failure = (operation: string) =>
      run.json.failures.find((f) => f.check === 'crud_sequence' && f.operation === operation);
    expect(failure('updateBook')?.problem).toMatch(
      /^the update is not visible on read: \/title sent .+, read .+: GET \/books\/b\d+ → 200 /,
    );
    expect(failure('updateBook')?.replay).toMatch(
      new RegExp(
        `^curl -i -X POST '${url}/books' .* && curl -i -X PUT '${url}/books/(b\\d+)' .* && curl -i -X GET '${url}/books/\\1'$`,
      ),
    );
    expect(failure('deleteBook')?.problem).toMatch(
      /^after DELETE the read answers 200, not 404 or 410: GET \/books\/b\d+/,
    );
    expect(failure('deleteBook')?.replay).toMatch(
      new RegExp(
        `^curl -i -X POST '${url}/books' .* && curl -i -X DELETE '${url}/books/(b\\d+)' && curl -i -X GET '${url}/books/\\1'$`,
      ),
    );
    expect(run.stdout).toContain(`REPLAY crud_sequence updateBook: curl -i -X POST '${url}/books'`);
    expect(run.crudCases.sort()).toEqual([
      'crud_sequence deleteBook FAILED',
      'crud_sequence listBooks',
      'crud_sequence readBook',
      'crud_sequence updateBook FAILED',
    ]);
    // Nothing else is wrong with this server.
    expect(run.json.failures.map((f) => `${f.check} ${f.operation}`).sort()).toEqual([
      'crud_sequence deleteBook',
      'crud_sequence updateBook',
    ]);
  }, 60_000);

  it('runs no sequence against the stateless mock of the same spec, whose sample matches the example, and says why', async () => {
    const mock = await startMock({ openapi: BOOKS });
    try {
      const run = await check(mock.url, 'mock');
      expect(run.json.checks.map((c) => c.check)).not.toContain('crud_sequence');
      // The first create sends the spec's example, which the mock's sample holds; the second, generated, shows it.
      expect(run.stderr).toMatch(
        /^crud sequences left out: .*the server keeps no state .*createBook then readBook: \/title sent .*, read "Dune"$/m,
      );
      expect(run.json.failures).toEqual([]);
      expect(run.code).toBe(0);
    } finally {
      await mock.app.close();
    }
  }, 60_000);
});
