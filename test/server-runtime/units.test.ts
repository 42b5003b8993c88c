/** Pure parts of the runtime, as tables: paths, query parsing and coercion, Service-Version, error messages. */
import { describe, expect, it } from 'vitest';
import {
  checkServiceVersion,
  coerceQuery,
  compilePath,
  describeProblem,
  HttpError,
  parseQuery,
  type RequestProblem,
  type ServiceVersionRule,
  toFastifyPath,
} from '../../templates/server/index.js';

describe('paths', () => {
  it.each([
    ['/things', '/things'],
    ['/things/{thing_id}', '/things/:thing_id'],
    ['/a/{x}/b/{y}', '/a/:x/b/:y'],
  ])('%s → %s', (given, want) => {
    expect(toFastifyPath(given)).toBe(want);
  });

  it.each([
    ['/things/{id}', '/things/th_1', { id: 'th_1' }],
    ['/things/{id}', '/things/a%20b', { id: 'a b' }],
    ['/things/{id}/events', '/things/x/events', { id: 'x' }],
    ['/things/{id}', '/things/', null],
    ['/things/{id}', '/things/a/b', null],
    ['/things/{id}', '/things/%E0%A4%A', null],
    ['/a.b', '/aXb', null],
  ])('%s matches %s as %j', (template, path, want) => {
    expect(compilePath(template).match(path)).toEqual(want);
  });
});

describe('query', () => {
  it('parses repeated names as arrays', () => {
    expect(parseQuery('?a=1&b=2&b=3&c=x+y')).toEqual({ a: '1', b: ['2', '3'], c: 'x y' });
  });

  it.each([
    ['integer', '42', 42],
    ['integer', '-7', -7],
    ['integer', '4.2', '4.2'],
    ['integer', '', ''],
    ['number', '4.25', 4.25],
    ['number', '1e3', 1000],
    ['number', 'NaN', 'NaN'],
    ['number', ' 1', ' 1'],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['boolean', '1', '1'],
  ] as const)('%s %j → %j', (kind, given, want) => {
    expect(coerceQuery({ v: given }, { v: kind })).toEqual({ v: want });
  });

  it('leaves undeclared names and repeated values alone', () => {
    expect(coerceQuery({ a: '1', b: ['1', '2'] }, { b: 'integer' })).toEqual({ a: '1', b: ['1', '2'] });
  });
});

describe('Service-Version', () => {
  const cases: [string, ServiceVersionRule, Record<string, string>, Record<string, string>, string | null][] = [
    ['required and given', 'required', { 'service-version': 'v1' }, {}, null],
    ['required and missing', 'required', {}, {}, 'missing_service_version'],
    ['required, query does not count', 'required', {}, { service_version: 'v1' }, 'missing_service_version'],
    ['required and wrong', 'required', { 'service-version': 'v0' }, {}, 'unsupported_service_version'],
    ['optional and absent', 'optional', {}, {}, null],
    ['optional in the query', 'optional', {}, { service_version: 'v1' }, null],
    [
      'optional, wrong query',
      'optional',
      { 'service-version': 'v1' },
      { service_version: 'v0' },
      'unsupported_service_version',
    ],
    ['not checked', 'none', { 'service-version': 'v0' }, {}, null],
  ];
  it.each(cases)('%s', (_, rule, headers, query, want) => {
    let code: string | null = null;
    try {
      checkServiceVersion({ headers, query }, rule, 'v1');
    } catch (error) {
      code = error instanceof HttpError ? error.code : 'not an HttpError';
    }
    expect(code).toBe(want);
  });
});

describe('describeProblem', () => {
  it.each([
    [{ in: 'body', pointer: '', message: 'must be object' }, 'Invalid body: must be object.'],
    [{ in: 'body', pointer: '/a/0', message: 'must be string' }, 'Invalid body at /a/0: must be string.'],
    [
      { in: 'query', pointer: '/limit', message: 'must be integer.' },
      'Invalid query parameter limit: must be integer.',
    ],
    [{ in: 'header', pointer: '/a~1b', message: 'bad' }, 'Invalid header a/b: bad.'],
  ] as [RequestProblem, string][])('%j', (problem, want) => {
    expect(describeProblem(problem)).toBe(want);
  });
});
