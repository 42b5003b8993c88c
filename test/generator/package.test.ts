/**
 * The generated package: its emitted package.json, README and LICENSE, then the package as `npm run pack:generated`
 * packs it, installed in a fresh project without its optional peers (`ws`, `fastify`) and used there from ESM,
 * CommonJS, TypeScript and a browser bundle.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitPackage } from '../../generator/emit/package/index.js';
import type { Ir } from '../../generator/ir/model.js';
import { launchChromium } from '../browser/chromium.js';
import { ROOT } from './helpers.js';

const PACKAGE_NAME = '@casi/conversational-agent-service';

const ENTRIES = ['types', 'validators', 'client', 'server'];

describe('emitPackage', () => {
  const ir = {
    documents: ['openapi.yaml', 'asyncapi.yaml'],
    title: 'Widget Service',
    packageName: '@casi/conversational-agent-service',
    version: '1.2.3',
    serviceVersion: '2025-01-01',
    operations: [],
    events: [],
    channels: [],
    schemas: [],
    errorCodes: [],
    securitySchemes: {},
    openapi: {},
  } as unknown as Ir;
  const sources = ENTRIES.map((entry) => ({ path: `src/${entry}.gen.ts`, content: '' }));
  const files = emitPackage(ir, sources);
  const file = (path: string) => files.find((f) => f.path === path)?.content ?? '';
  const pkg = JSON.parse(file('package.json'));

  it('writes the conditions of every subpath in resolution order: import, require, default, types first in each', () => {
    expect(Object.keys(pkg.exports)).toEqual(['./client', './server', './types', './validators']);
    for (const entry of ENTRIES) {
      const conditions = pkg.exports[`./${entry}`];
      expect(Object.keys(conditions), entry).toEqual(['import', 'require', 'default']);
      expect(conditions, entry).toEqual({
        import: { types: `./dist/${entry}.gen.d.ts`, default: `./dist/${entry}.gen.js` },
        require: { types: `./cjs/${entry}.d.cts`, default: `./dist/${entry}.gen.js` },
        default: `./dist/${entry}.gen.js`,
      });
      expect(Object.keys(conditions.import)).toEqual(['types', 'default']);
      expect(pkg.typesVersions['*'][entry]).toEqual([`./dist/${entry}.gen.d.ts`]);
      expect(file(`cjs/${entry}.d.cts`)).toContain(`export * from '../dist/${entry}.gen.js';`);
    }
  });

  it('sorts the keys of every other object, and gives the same bytes every time', () => {
    const unsorted: string[] = [];
    const visit = (value: unknown, at: string[]): void => {
      if (Array.isArray(value) || value === null || typeof value !== 'object') return;
      const keys = Object.keys(value);
      const conditions = at[0] === 'exports' && at.length >= 2;
      if (!conditions && keys.join('\n') !== [...keys].sort().join('\n')) unsorted.push(at.join(' '));
      for (const key of keys) visit((value as Record<string, unknown>)[key], [...at, key]);
    };
    visit(pkg, []);
    expect(unsorted).toEqual([]);
    expect(emitPackage(ir, sources)).toEqual(files);
    expect(file('package.json').endsWith('}\n')).toBe(true);
  });

  it('maps ws away for browsers, declares no side effects, publishes publicly and ships dist/ but not src/', () => {
    expect(pkg.browser).toEqual({ ws: false });
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.name).toBe(PACKAGE_NAME);
    expect(pkg.publishConfig).toEqual({ access: 'public' });
    expect(pkg.files).toEqual(['dist', 'cjs', 'README.md', 'LICENSE', 'CHANGELOG.md']);
    expect(pkg.engines).toEqual({ node: '>=20.19' });
    expect(pkg.peerDependenciesMeta).toEqual({ fastify: { optional: true }, ws: { optional: true } });
  });

  it('is right to declare no side effects: no module of generated/src runs a statement at load but on its own', () => {
    const source = join(ROOT, 'generated/src');
    const statements: string[] = [];
    for (const path of readdirSync(source, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.ts'))) {
      const file = ts.createSourceFile(path, readFileSync(join(source, path), 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of file.statements) {
        const declares =
          ts.isImportDeclaration(statement) ||
          ts.isExportDeclaration(statement) ||
          ts.isFunctionDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement) ||
          ts.isVariableStatement(statement) ||
          (ts.isClassDeclaration(statement) && !statement.members.some(ts.isClassStaticBlockDeclaration)) ||
          setsOwnFunction(file, statement) ||
          // ajv's `"use strict";`, after the imports of a raw module: a string, which does nothing.
          (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression));
        if (!declares) statements.push(`${path}: ${statement.getText(file).slice(0, 80)}`);
      }
    }
    expect(statements).toEqual([]);
  });

  it('emits the MIT license that package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const license = file('LICENSE');
    expect(license.startsWith('MIT License\n\nCopyright (c) CASI contributors\n')).toBe(true);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    expect(license.endsWith('SOFTWARE.\n')).toBe(true);
  });

  it('says in the README that the package is ESM usable with require, and which peer is needed for what', () => {
    const readme = file('README.md');
    expect(readme).toContain('The package is ESM');
    expect(readme).toContain(`require('${PACKAGE_NAME}/client')`);
    expect(readme).toContain('Node ≥ 20.19');
    expect(readme).toMatch(/\| `fastify` \^5 \| `…\/server`/);
    expect(readme).toMatch(
      /\| `ws` \^8 \| the client's WebSocket session, `session\(\)`, on Node 20 .*the server's WebSocket routes/,
    );
    expect(readme).toContain('under `browser`');
  });
});

const work = mkdtempSync(join(tmpdir(), 'casi-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the package packed by npm run pack:generated, installed without its optional peers', () => {
  /** A checkout-shaped folder: the root's `pack:generated` script, and generated/ with a dist/ of an older build. */
  const root = join(work, 'root');
  const app = join(work, 'app');
  let listing: string[] = [];

  beforeAll(() => {
    mkdirSync(root);
    const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['pack:generated'];
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'root', private: true, type: 'module', scripts: { 'pack:generated': script } }),
    );
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    cpSync(join(ROOT, 'generated'), join(root, 'generated'), {
      recursive: true,
      filter: (src) => {
        const top = relative(join(ROOT, 'generated'), src).split(sep)[0];
        return top !== 'node_modules' && top !== 'dist' && !src.endsWith('.tgz');
      },
    });
    // What a build of a template since removed left behind.
    mkdirSync(join(root, 'generated/dist/runtime/removed'), { recursive: true });
    writeFileSync(join(root, 'generated/dist/runtime/removed/gone.js'), 'export const gone = true;\n');
    run('npm', ['run', 'pack:generated'], root);
    const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm run pack:generated made no tarball');
    listing = run('tar', ['tzf', tarball], root).split('\n').filter(Boolean).sort();

    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(root, tarball)], app);
  }, 300_000);

  it('ships package.json, README.md, LICENSE and the build of the current sources only', () => {
    expect(listing).toContain('package/package.json');
    expect(listing).toContain('package/README.md');
    expect(listing).toContain('package/LICENSE');
    expect(listing.filter((path) => path.startsWith('package/src/'))).toEqual([]);
    expect(listing).not.toContain('package/dist/runtime/removed/gone.js');
    const dist = listing.filter((path) => path.startsWith('package/dist/'));
    for (const entry of ENTRIES) expect(dist).toContain(`package/dist/${entry}.gen.d.ts`);
    // Every file of dist/ is the build of a source of generated/src/.
    const orphans = dist.filter((path) => {
      const source = path.slice('package/dist/'.length).replace(/\.d\.ts$|\.js$/, '.ts');
      return !existsSync(join(root, 'generated/src', source));
    });
    expect(orphans).toEqual([]);
    expect(listing.filter((path) => !path.startsWith('package/dist/'))).toEqual([
      'package/LICENSE',
      'package/README.md',
      ...ENTRIES.map((entry) => `package/cjs/${entry}.d.cts`).sort(),
      'package/package.json',
    ]);
  });

  it('is installed without ws and fastify (the optional peers)', () => {
    const fromApp = createRequire(join(app, 'index.js'));
    expect(() => fromApp.resolve('ws')).toThrow();
    expect(() => fromApp.resolve('fastify')).toThrow();
  });

  it('imports from ESM', () => {
    writeFileSync(
      join(app, 'check.mjs'),
      `import { validateServerEvent } from '${PACKAGE_NAME}/validators';
import { createClient, SERVICE_VERSION } from '${PACKAGE_NAME}/client';
const event = { id: 'ev_1', created_at: '2025-07-02T14:00:00Z', agent_id: 'ca_1@v1', livemode: true,
  conversation_id: 'conv_1', experimental: false, payload: { type: 'conversation.started' } };
const bad = { ...event, payload: { type: 'agent.message.delta' } };
const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
console.log(JSON.stringify({ valid: validateServerEvent(event), invalid: validateServerEvent(bad),
  pointers: validateServerEvent.errors?.map((e) => e.pointer), version: SERVICE_VERSION,
  resources: Object.keys(client).sort() }));
`,
    );
    const out = JSON.parse(run(process.execPath, ['check.mjs'], app));
    expect(out.valid).toBe(true);
    expect(out.invalid).toBe(false);
    expect(out.pointers).toContain('/payload/text_delta');
    expect(out.version).toBe('2025-06-19');
    expect(out.resources).toEqual([
      'conversationalAgents',
      'conversations',
      'core',
      'customers',
      'proceduralAgents',
      'procedures',
      'raw',
    ]);
  });

  it('requires every entry from CommonJS (Node ≥ 20.19 loads ES modules with require)', () => {
    writeFileSync(
      join(app, 'check.cjs'),
      `const { errorCodes } = require('${PACKAGE_NAME}/types');
const { validateServerEvent } = require('${PACKAGE_NAME}/validators');
const { createClient } = require('${PACKAGE_NAME}/client');
const { registerRoutes, routes } = require('${PACKAGE_NAME}/server');
console.log(JSON.stringify([typeof errorCodes, typeof validateServerEvent, typeof createClient,
  typeof registerRoutes, Array.isArray(routes)]));
`,
    );
    expect(JSON.parse(run(process.execPath, ['check.cjs'], app))).toEqual([
      'object',
      'function',
      'function',
      'function',
      true,
    ]);
  });

  it('type-checks a CommonJS TypeScript consumer (module node16) and one resolving as node10, types intact', () => {
    const use = (from: string) => `${from}
export function text(event: ServerEvent): string {
  return event.payload.type === 'agent.message.completed' ? event.payload.text : '';
}
export const client = createClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' });
export const checked: boolean = validateServerEvent({});
// @ts-expect-error an event needs its members
export const wrong: ServerEvent = {};
`;
    const imports = `import type { ServerEvent } from '${PACKAGE_NAME}/types';
import { createClient } from '${PACKAGE_NAME}/client';
import { validateServerEvent } from '${PACKAGE_NAME}/validators';`;
    writeFileSync(join(app, 'use-cjs.cts'), use(imports));
    writeFileSync(join(app, 'use-node10.ts'), use(imports));
    const check = (name: string, module: string, moduleResolution: string, file: string) => {
      const options = { module, moduleResolution, target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false };
      writeFileSync(
        join(app, name),
        JSON.stringify({ compilerOptions: { ...options, lib: ['ES2023', 'DOM'], types: [] }, files: [file] }),
      );
      try {
        return run(process.execPath, [tsc, '-p', name], app);
      } catch (error) {
        return `tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`;
      }
    };
    expect(check('tsconfig.cjs.json', 'node16', 'node16', 'use-cjs.cts')).toBe('');
    expect(check('tsconfig.node10.json', 'commonjs', 'node10', 'use-node10.ts')).toBe('');
  }, 120_000);

  it('bundles the client for the browser without ws installed', async () => {
    writeFileSync(
      join(app, 'page.mjs'),
      `import { createClient } from '${PACKAGE_NAME}/client';
const client = createClient({ baseUrl: location.origin });
client.conversations.session('conv_1', { token: 't' });
`,
    );
    const result = await build({
      absWorkingDir: app,
      entryPoints: ['page.mjs'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      outdir: 'out',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const code = (result.outputFiles ?? []).map((f) => f.text).join('\n');
    expect(code).toContain('sendsHeaders');
    expect(code).not.toContain('WebSocketServer');
  });

  it('runs in Chromium, bundled from the installed package, with per-call headers, hooks and withResponse', async () => {
    writeFileSync(
      join(app, 'options-page.mjs'),
      `import { createClient } from '${PACKAGE_NAME}/client';
window.run = async () => {
  const seen = [];
  const client = createClient({ baseUrl: location.origin, apiKey: 'sk_page', onRequest: (info) => seen.push(info.headers) });
  const { data, response } = await client.conversations
    .retrieve('conv_9Xr4Tb2Kp', { headers: { 'x-trace': 'abc' } })
    .withResponse();
  return { id: data.id, status: response.status, type: response.headers.get('content-type'), seen };
};
`,
    );
    const bundle = await build({
      absWorkingDir: app,
      entryPoints: ['options-page.mjs'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const script = bundle.outputFiles?.[0]?.text ?? '';
    const conversation = {
      id: 'conv_9Xr4Tb2Kp',
      agent_id: 'ca_1@v1',
      livemode: true,
      created_at: '2025-07-02T14:00:00Z',
    };
    const received: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      if (request.url === '/page.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      if (request.url?.startsWith('/conversations/')) {
        received.push(request.headers);
        return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(conversation));
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<script type="module" src="/page.js"></script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const tab = await browser.context.newPage();
      await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => typeof (globalThis as { run?: unknown }).run === 'function');
      const result = await tab.evaluate(() => (globalThis as unknown as { run(): Promise<unknown> }).run());
      expect(result).toEqual({
        id: 'conv_9Xr4Tb2Kp',
        status: 200,
        type: 'application/json',
        seen: [expect.objectContaining({ 'x-trace': 'abc', authorization: '[redacted]' })],
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ 'x-trace': 'abc', authorization: 'Bearer sk_page' });
    } finally {
      await browser.close();
      server.close();
    }
  }, 60_000);

  it('serves HTTP without ws, and answers a WebSocket handshake 500 until ws is installed', () => {
    symlinkSync(join(ROOT, 'node_modules/fastify'), join(app, 'node_modules/fastify'), 'dir');
    writeFileSync(
      join(app, 'serve.mjs'),
      `import { request } from 'node:http';
import Fastify from 'fastify';
import { registerRoutes, routes } from '${PACKAGE_NAME}/server';
const handlers = Object.fromEntries(routes.map((route) => [route.operationId,
  async (req) => ({ status: 200, body: { operation: route.operationId, params: req.params } })]));
const app = Fastify();
registerRoutes(app, handlers);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address();
const rest = await fetch(\`http://127.0.0.1:\${port}/conversations/conv_9Xr4Tb2Kp\`,
  { headers: { 'service-version': '2025-06-19', authorization: 'Bearer key' } });
const answer = { status: rest.status, body: await rest.json() };
const handshake = await new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/conversations/conv_9Xr4Tb2Kp/session?token=t', headers: {
    connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
  req.on('upgrade', () => reject(new Error('upgraded without ws')));
  req.on('response', (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    res.on('end', () => resolve({ status: res.statusCode, code: JSON.parse(text).code }));
  });
  req.on('error', reject);
  req.end();
});
await app.close();
console.log(JSON.stringify({ answer, handshake }));
`,
    );
    const out = JSON.parse(run(process.execPath, ['serve.mjs'], app));
    expect(out.answer).toEqual({
      status: 200,
      body: { operation: 'getConversation', params: { conversation_id: 'conv_9Xr4Tb2Kp' } },
    });
    expect(out.handshake).toEqual({ status: 500, code: 'internal_error' });
  });

  it('type-checks a TypeScript consumer', () => {
    writeFileSync(
      join(app, 'use.ts'),
      `import type { ServerEvent, CreateConversationRequest } from '${PACKAGE_NAME}/types';
import { createClient } from '${PACKAGE_NAME}/client';
import type { Handlers } from '${PACKAGE_NAME}/server';
export function text(event: ServerEvent): string {
  return event.payload.type === 'agent.message.completed' ? event.payload.text : '';
}
export const body: CreateConversationRequest = { agent_id: 'ca_1', channel: { type: 'chat_realtime' } };
export const start = (c: ReturnType<typeof createClient>) => c.conversations.create(body);
export type H = Handlers['getConversation'];
// @ts-expect-error a conversation needs a channel
export const wrong: CreateConversationRequest = { agent_id: 'ca_1' };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          lib: ['ES2023', 'DOM'],
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    if (!existsSync(join(app, 'node_modules/fastify'))) {
      symlinkSync(join(ROOT, 'node_modules/fastify'), join(app, 'node_modules/fastify'), 'dir');
    }
    const typecheck = (() => {
      try {
        return run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
      } catch (error) {
        return `tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`;
      }
    })();
    expect(typecheck).toBe('');
  });
});

/** `f.member = value;` where `f` is a function the file declares (ajv's standalone code notes what it evaluated). */
function setsOwnFunction(file: ts.SourceFile, statement: ts.Statement): boolean {
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return false;
  const { left, operatorToken } = statement.expression;
  if (operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isPropertyAccessExpression(left)) return false;
  const target = left.expression;
  return (
    ts.isIdentifier(target) && file.statements.some((s) => ts.isFunctionDeclaration(s) && s.name?.text === target.text)
  );
}
