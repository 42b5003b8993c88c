/**
 * Parameter styles against OpenAPI 3.1's style examples table (https://spec.openapis.org/oas/v3.1.0#style-examples,
 * `color` = "", "blue", ["blue","black","brown"], {R:100,G:200,B:150}), through `buildUrl` and over a real request.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../templates/client/core.js';
import {
  buildUrl,
  cookieText,
  headerValue,
  type StyleOf,
  styledWriters,
} from '../../templates/client/parameter-styles.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';

const EMPTY = '';
const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };
const BASE = 'http://127.0.0.1';

/** The path text `buildUrl` writes for `color` in `style` (what follows `/x` in `/x{color}`). */
const inPath = (value: unknown, style: StyleOf) =>
  buildUrl(BASE, '/x{color}', { path: { color: value } }, { path: { color: style } }).slice(`${BASE}/x`.length);

/** The query string `buildUrl` writes for `color` in `style` (what follows `?`). */
const inQuery = (value: unknown, style: StyleOf) =>
  buildUrl(BASE, '/x', { query: { color: value } }, { query: { color: style } }).split('?')[1] ?? '';

describe('path styles, as the OpenAPI style examples table has them', () => {
  it.each([
    [['matrix', false], EMPTY, ';color'],
    [['matrix', false], STRING, ';color=blue'],
    [['matrix', false], ARRAY, ';color=blue,black,brown'],
    [['matrix', false], OBJECT, ';color=R,100,G,200,B,150'],
    [['matrix', true], EMPTY, ';color'],
    [['matrix', true], STRING, ';color=blue'],
    [['matrix', true], ARRAY, ';color=blue;color=black;color=brown'],
    [['matrix', true], OBJECT, ';R=100;G=200;B=150'],
    [['label', false], EMPTY, '.'],
    [['label', false], STRING, '.blue'],
    [['label', false], ARRAY, '.blue,black,brown'],
    [['label', false], OBJECT, '.R,100,G,200,B,150'],
    [['label', true], EMPTY, '.'],
    [['label', true], STRING, '.blue'],
    [['label', true], ARRAY, '.blue.black.brown'],
    [['label', true], OBJECT, '.R=100.G=200.B=150'],
    [['simple', false], STRING, 'blue'],
    [['simple', false], ARRAY, 'blue,black,brown'],
    [['simple', false], OBJECT, 'R,100,G,200,B,150'],
    [['simple', true], STRING, 'blue'],
    [['simple', true], ARRAY, 'blue,black,brown'],
    [['simple', true], OBJECT, 'R=100,G=200,B=150'],
  ] as [StyleOf, unknown, string][])('%j writes %j as %s', (style, value, expected) => {
    expect(inPath(value, style)).toBe(expected);
  });

  it('writes simple, not exploded, by default', () => {
    expect(buildUrl(BASE, '/x/{color}', { path: { color: ARRAY } })).toBe(`${BASE}/x/blue,black,brown`);
  });

  it('percent-encodes values but not the separators', () => {
    expect(inPath(['a b', 'c/d'], ['matrix', true])).toBe(';color=a%20b;color=c%2Fd');
    expect(inPath({ 'k,1': 'v;2' }, ['label', true])).toBe('.k%2C1=v%3B2');
  });

  it('encodes the dots inside label items, which would read as separators', () => {
    expect(inPath(['a.b', 'c'], ['label', true])).toBe('.a%2Eb.c');
    expect(inPath({ 'k.1': 'v.2' }, ['label', false])).toBe('.k%2E1,v%2E2');
  });

  it('refuses a value written as a whole dot segment in any style', () => {
    const url = (value: unknown, style: StyleOf) =>
      buildUrl(BASE, '/x/{color}/y', { path: { color: value } }, { path: { color: style } });
    expect(() => url(['..'], ['simple', false])).toThrow(/color = "\.\." would change the path/);
    expect(() => url('', ['label', false])).toThrow(/color = "\." would change the path/);
    expect(url('..', ['label', false])).toBe(`${BASE}/x/.%2E%2E/y`);
  });
});

describe('query styles, as the OpenAPI style examples table has them', () => {
  it.each([
    [['form', false], EMPTY, 'color='],
    [['form', false], STRING, 'color=blue'],
    [['form', false], ARRAY, 'color=blue,black,brown'],
    [['form', false], OBJECT, 'color=R,100,G,200,B,150'],
    [['form', true], EMPTY, 'color='],
    [['form', true], STRING, 'color=blue'],
    [['form', true], ARRAY, 'color=blue&color=black&color=brown'],
    [['form', true], OBJECT, 'R=100&G=200&B=150'],
    // The table gives the value; the query names it.
    [['spaceDelimited', false], ARRAY, 'color=blue%20black%20brown'],
    [['spaceDelimited', false], OBJECT, 'color=R%20100%20G%20200%20B%20150'],
    [['pipeDelimited', false], ARRAY, 'color=blue|black|brown'],
    [['pipeDelimited', false], OBJECT, 'color=R|100|G|200|B|150'],
    [['deepObject', true], OBJECT, 'color[R]=100&color[G]=200&color[B]=150'],
  ] as [StyleOf, unknown, string][])('%j writes %j as %s', (style, value, expected) => {
    expect(inQuery(value, style)).toBe(expected);
  });

  it('writes form, exploded, by default, in member order, leaving out undefined and null', () => {
    const url = buildUrl(BASE, '/x', { query: { b: ARRAY, a: OBJECT, n: null, u: undefined, s: 'x y&z' } });
    expect(url).toBe(`${BASE}/x?b=blue&b=black&b=brown&R=100&G=200&B=150&s=x%20y%26z`);
  });

  it('percent-encodes delimited items but not their separators', () => {
    expect(inQuery(['a|b', 'c d'], ['pipeDelimited', false])).toBe('color=a%7Cb|c%20d');
    expect(inQuery({ 'a b': 'c&d' }, ['deepObject', true])).toBe('color[a%20b]=c%26d');
  });

  it('nests a deep object member that is an object and repeats one that is an array', () => {
    const value = { range: { min: 1, max: { at: 'a b' } }, tags: ['x', 'y&z'], none: null };
    expect(inQuery(value, ['deepObject', true])).toBe(
      'color[range][min]=1&color[range][max][at]=a%20b&color[tags]=x&color[tags]=y%26z',
    );
  });

  it('writes a space inside a spaceDelimited item as +, apart from the %20 between items', () => {
    expect(inQuery(['a b', 'c+d'], ['spaceDelimited', false])).toBe('color=a+b%20c%2Bd');
  });

  it('writes a JSON content parameter as its percent-encoded JSON text', () => {
    expect(inQuery({ a: [1, 'x,y'] }, ['json', false])).toBe(`color=${encodeURIComponent('{"a":[1,"x,y"]}')}`);
    expect(inPath({ a: 'b' }, ['json', false])).toBe('%7B%22a%22%3A%22b%22%7D');
  });

  it('sends the query of a path template with a #fragment before the fragment, which it leaves out', () => {
    expect(buildUrl(BASE, '/cookies#formExploded', { query: { a: 1 } })).toBe(`${BASE}/cookies?a=1`);
  });
});

describe('header and cookie styles', () => {
  it.each([
    [['simple', false], STRING, 'blue'],
    [['simple', false], ARRAY, 'blue,black,brown'],
    [['simple', false], OBJECT, 'R,100,G,200,B,150'],
    [['simple', true], ARRAY, 'blue,black,brown'],
    [['simple', true], OBJECT, 'R=100,G=200,B=150'],
  ] as [StyleOf, unknown, string][])('a header in %j writes %j as %s', (style, value, expected) => {
    expect(headerValue(value, style)).toBe(expected);
  });

  it('refuses a header item holding a comma, naming the header, rather than sending it as two items', () => {
    expect(() => headerValue(['a,b', 'c'], ['simple', false], 'X-Tags')).toThrow(
      'An item of X-Tags holds a comma, which a header list cannot carry',
    );
    expect(() => headerValue({ k: 'v,w' }, ['simple', true], 'X-Map')).toThrow(/An item of X-Map holds a comma/);
    expect(headerValue('a,b', ['simple', false], 'X-One')).toBe('a,b');
  });

  it.each([
    [false, STRING, 'color=blue'],
    [false, ARRAY, 'color=blue,black,brown'],
    [false, OBJECT, 'color=R,100,G,200,B,150'],
    [true, ARRAY, 'color=blue; color=black; color=brown'],
    [true, OBJECT, 'R=100; G=200; B=150'],
  ] as [boolean, unknown, string][])('a form cookie with explode %s writes %j as %s', (explode, value, expected) => {
    expect(cookieText({ color: value }, { color: ['form', explode] })).toBe(expected);
  });
});

describe('styled parameters over a real request', () => {
  let server: TestServer;
  let seen: { url: string; headers: IncomingMessage['headers'] } | undefined;
  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      seen = { url: req.url ?? '', headers: req.headers };
      sendJson(res, 200, {});
    });
  });
  afterAll(() => server.close());

  it('sends path, query, header and cookie parameters in their styles', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a core over an untyped API, to send any parameters.
    const core = createCore<any>({ baseUrl: server.url });
    await core.request('get', '/things/{id}/{tags}', {
      params: {
        path: { id: 7, tags: ARRAY },
        query: { color: ARRAY, filter: OBJECT, plain: 'a b' },
        header: { 'X-Color': ARRAY, 'X-Rgb': OBJECT },
        cookie: { color: ARRAY, session: 's 1' },
      },
      writers: styledWriters({
        path: { tags: ['matrix', true] },
        query: { color: ['pipeDelimited', false], filter: ['deepObject', true] },
        header: { 'X-Rgb': ['simple', true] },
        cookie: { color: ['form', false] },
      }),
    });
    expect(seen?.url).toBe(
      '/things/7/;tags=blue;tags=black;tags=brown?color=blue|black|brown&filter[R]=100&filter[G]=200&filter[B]=150&plain=a%20b',
    );
    expect(seen?.headers['x-color']).toBe('blue,black,brown');
    expect(seen?.headers['x-rgb']).toBe('R=100,G=200,B=150');
    expect(seen?.headers.cookie).toBe('color=blue,black,brown; session=s%201');
  });

  it('sends cookie parameters beside an API key carried in a cookie', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a core over an untyped API, to send any parameters.
    const core = createCore<any>({
      baseUrl: server.url,
      apiKey: 'k 1',
      securitySchemes: { cookieKey: { type: 'apiKey', in: 'cookie', name: 'key' } },
    });
    await core.request('get', '/things', { params: { cookie: { theme: 'dark' } }, security: ['cookieKey'] });
    expect(seen?.headers.cookie).toBe('key=k%201; theme=dark');
  });
});
