/**
 * A client generated from test/fixtures/media-kinds (one operation per media kind, styled parameters) type-checks
 * with its bodies and answers typed as the spec says, and talks to a real loopback server as the wire contract says.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileStrict } from '../generator/compile-strict.js';
import { ROOT } from '../generator/helpers.js';
import { type GeneratedPackage, generatePackage } from './helpers/generated-package.js';
import { startHttpServer, type TestServer } from './helpers/http-server.js';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly bytes: Buffer;
}

let server: TestServer;
let pkg: GeneratedPackage | undefined;
const received: Received[] = [];
// biome-ignore lint/suspicious/noExplicitAny: the generated module, imported at run time.
let client: any;

beforeAll(async () => {
  pkg = await generatePackage(join(ROOT, 'test/fixtures/media-kinds/openapi.yaml'), 'media-kinds');
  server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const got = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: Buffer.concat(chunks) };
    received.push(got);
    if (got.url.startsWith('/ticks')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n');
    } else if (got.url.startsWith('/notes/')) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(got.bytes.toString('utf8').toUpperCase());
    } else if (got.method === 'GET' && got.url.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
    } else if (got.method === 'PUT') {
      res.writeHead(204).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: 'yes' }));
    }
  });
  client = pkg.clientModule.createClient({ baseUrl: server.url });
}, 60_000);
afterAll(async () => {
  await server?.close();
  pkg?.remove();
});

const last = () => received.at(-1) as Received;

describe('a client generated for bodies and answers that are not JSON', () => {
  it('sends a form body as pairs', async () => {
    expect(await client.media.signUp({ name: 'Ada Lovelace', age: 36, tags: ['math', 'poetry'] })).toEqual({
      received: 'yes',
    });
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(last().bytes.toString()).toBe('name=Ada+Lovelace&age=36&tags=math&tags=poetry');
  });

  it('sends a multipart body with the file as a file part', async () => {
    await client.media.upload({ file: new File(['%PNG'], 'a.png', { type: 'image/png' }), title: 'A' });
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await new Response(new Uint8Array(last().bytes), {
      headers: { 'content-type': String(last().headers['content-type']) },
    }).formData();
    expect(parts.get('title')).toBe('A');
    expect(await (parts.get('file') as File).text()).toBe('%PNG');
    expect((parts.get('file') as File).name).toBe('a.png');
  });

  it('sends text and reads text, with the label-style path parameter', async () => {
    expect(await client.media.writeNote('n1', 'hello')).toBe('HELLO');
    expect(last().url).toBe('/notes/.n1');
    expect(last().headers['content-type']).toBe('text/plain');
  });

  it('sends bytes and reads a Blob', async () => {
    await client.media.putFile('f1', new Uint8Array([1, 2, 3]));
    expect([...last().bytes]).toEqual([1, 2, 3]);
    expect(last().headers['content-type']).toBe('application/octet-stream');
    const blob = await client.media.getFile('f1');
    expect(blob).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([137, 80, 78, 71]);
  });

  it('reads event-stream items, sending the query in its styles when the iteration starts', async () => {
    const count = received.length;
    const ticks = client.media.ticks({ tags: ['a', 'b'], filter: { from: 3 }, limit: 2 });
    expect(received.length).toBe(count);
    const items: unknown[] = [];
    for await (const tick of ticks) items.push(tick);
    expect(items).toEqual([{ n: 1 }, { n: 2 }]);
    expect(last().url).toBe('/ticks?tags=a|b&filter[from]=3&limit=2');
  });

  it('type-checks, with each body and answer typed as the spec says', async () => {
    writeFileSync(
      join(pkg?.dir ?? '', 'uses.ts'),
      [
        "import { createClient } from './src/client.gen.js';",
        "const client = createClient({ baseUrl: 'http://127.0.0.1' });",
        'export async function uses(): Promise<void> {',
        "  const echo: { received: string } = await client.media.signUp({ name: 'a', tags: ['x'] });",
        "  await client.media.upload({ file: new Blob(['x']), title: 't' });",
        "  const note: string = await client.media.writeNote('n', 'text');",
        "  await client.media.putFile('f', new ReadableStream<Uint8Array>());",
        "  const blob: Blob = await client.media.getFile('f');",
        "  for await (const tick of client.media.ticks({ tags: ['a'], filter: { from: 1 } })) { const n: number = tick.n; void n; }",
        '  // @ts-expect-error a form body is an object with its required members',
        '  await client.media.signUp({ age: 1 });',
        '  // @ts-expect-error a text body is a string',
        "  await client.media.writeNote('n', { text: 'x' });",
        '  // @ts-expect-error a multipart file part is a Blob',
        '  await client.media.upload({ file: 42 });',
        '  void echo; void note; void blob;',
        '}',
      ].join('\n'),
    );
    expect(compileStrict(pkg?.dir ?? '', ['uses.ts', 'src/**/*.ts'])).toEqual([]);
  }, 120_000);
});
