/**
 * A client generated from the corpus's readme-parameter-styles document (written elsewhere: one operation per
 * style and explode) sends each parameter as OpenAPI's style table says, to a real loopback server.
 */
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../generator/helpers.js';
import { type GeneratedPackage, generatePackage } from './helpers/generated-package.js';
import { sendJson, startHttpServer, type TestServer } from './helpers/http-server.js';

let server: TestServer;
let pkg: GeneratedPackage | undefined;
let seen: { url: string; headers: IncomingMessage['headers'] } | undefined;
// biome-ignore lint/suspicious/noExplicitAny: the generated module, imported at run time.
let client: any;

beforeAll(async () => {
  pkg = await generatePackage(join(ROOT, '../shared/spec-corpus/readme-parameter-styles.openapi.yaml'), 'styles');
  server = await startHttpServer((req, res) => {
    seen = { url: req.url ?? '', headers: req.headers };
    sendJson(res, 200, {});
  });
  client = pkg.clientModule.createClient({ baseUrl: server.url });
}, 60_000);
afterAll(async () => {
  await server?.close();
  pkg?.remove();
});

const PRIMITIVE = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { name: 'Ada', description: 'x y' };
const values = { primitive: PRIMITIVE, array: ARRAY, object: OBJECT };

describe('the generated client of readme-parameter-styles', () => {
  it.each([
    ['pathsStandard', '/anything/path/blue/blue,black,brown/name,Ada,description,x%20y'],
    ['pathsSimpleNonExploded', '/anything/path/simple/blue/blue,black,brown/name,Ada,description,x%20y'],
    ['pathsSimpleExploded', '/anything/path/simple/blue/blue,black,brown/name=Ada,description=x%20y'],
    ['pathsLabelNonExploded', '/anything/path/label/.blue/.blue,black,brown/.name,Ada,description,x%20y'],
    ['pathsLabelExploded', '/anything/path/label/.blue/.blue.black.brown/.name=Ada.description=x%20y'],
    [
      'pathsMatrixNonExploded',
      '/anything/path/matrix/;primitive=blue/;array=blue,black,brown/;object=name,Ada,description,x%20y',
    ],
    [
      'pathsMatrixExploded',
      '/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;name=Ada;description=x%20y',
    ],
  ])('path.%s sends %s', async (method, url) => {
    await client.path[method](PRIMITIVE, ARRAY, OBJECT);
    expect(seen?.url).toBe(url);
  });

  it.each([
    ['queryStandard', '/anything/query?primitive=blue&array=blue&array=black&array=brown&name=Ada&description=x%20y'],
    [
      'queryFormExploded',
      '/anything/query/form?primitive=blue&array=blue&array=black&array=brown&name=Ada&description=x%20y',
    ],
    [
      'queryFormNonExploded',
      '/anything/query/form?primitive=blue&array=blue,black,brown&object=name,Ada,description,x%20y',
    ],
  ])('query.%s sends %s', async (method, url) => {
    await client.query[method](values);
    expect(seen?.url).toBe(url);
  });

  it('sends spaceDelimited, pipeDelimited and deepObject query parameters', async () => {
    await client.query.querySpaceDelimitedNonExploded({ array: ARRAY, object: OBJECT });
    expect(seen?.url).toBe(
      '/anything/query/spaceDelimited?array=blue%20black%20brown&object=name%20Ada%20description%20x+y',
    );
    await client.query.queryPipeDelimitedNonExploded({ array: ARRAY, object: OBJECT });
    expect(seen?.url).toBe('/anything/query/pipeDelimited?array=blue|black|brown&object=name|Ada|description|x%20y');
    await client.query.queryDeepObjectNonExploded({ object: OBJECT });
    expect(seen?.url).toBe('/anything/query/deepObject?object[name]=Ada&object[description]=x%20y');
  });

  it('sends simple header parameters, exploded or not', async () => {
    await client.header.headersSimpleNonExploded(values);
    expect([seen?.headers.primitive, seen?.headers.array, seen?.headers.object]).toEqual([
      'blue',
      'blue,black,brown',
      'name,Ada,description,x y',
    ]);
    await client.header.headersSimpleExploded(values);
    expect(seen?.headers.object).toBe('name=Ada,description=x y');
  });

  it('sends form cookie parameters, exploded or not, and leaves the #fragment of the path out', async () => {
    await client.cookie.cookiesFormNonExploded(values);
    expect(seen?.url).toBe('/cookies');
    expect(seen?.headers.cookie).toBe('primitive=blue; array=blue,black,brown; object=name,Ada,description,x%20y');
    await client.cookie.cookiesFormExploded(values);
    expect(seen?.headers.cookie).toBe(
      'primitive=blue; array=blue; array=black; array=brown; name=Ada; description=x%20y',
    );
  });
});
