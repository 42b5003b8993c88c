/** Emits the package around the generated sources: package.json, its build tsconfig, a README and the LICENSE. */
import type { Ir } from '../../ir/model.js';
import { type EmittedFile, sourcesNote, stableJson, withHeader } from '../shared/files.js';
import { usageSections } from './readme-samples.js';

/** The npm name of the generated package. */
/**
 * The generated package's name: `info.x-casi-package-name` where the spec sets it, else the title in kebab case
 * (`Swagger Petstore` → `swagger-petstore`), else `api`.
 */
export function packageName(ir: Pick<Ir, 'packageName' | 'title'>): string {
  if (ir.packageName !== undefined) return ir.packageName;
  const kebab = ir.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 214);
  return kebab === '' ? 'api' : kebab;
}

/** Entry points: `./<entry>` of the package maps to `src/<entry>.gen.ts`, when that file is emitted. */
const ENTRIES = ['types', 'validators', 'client', 'server', 'channels', 'channel-routes'] as const;

/** The holder named in the emitted LICENSE. */
const LICENSE_HOLDER = 'CASI contributors';

/** Builds the package files for the sources in `files`. */
export function emitPackage(ir: Ir, files: readonly EmittedFile[]): EmittedFile[] {
  const present = ENTRIES.filter((entry) => files.some((f) => f.path === `src/${entry}.gen.ts`));
  // The conditions in the order resolvers try them (the first that matches wins). `import` gives TypeScript the ES
  // module declarations; `require` gives CommonJS code the same module (Node ≥ 20.19 can require ES modules) and
  // TypeScript a CommonJS declaration of it, which `module: node16` needs to let a CommonJS file import it.
  const exports = Object.fromEntries(
    [...present].sort().map((entry) => [
      `./${entry}`,
      {
        import: { types: `./dist/${entry}.gen.d.ts`, default: `./dist/${entry}.gen.js` },
        require: { types: `./cjs/${entry}.d.cts`, default: `./dist/${entry}.gen.js` },
        default: `./dist/${entry}.gen.js`,
      },
    ]),
  );
  // For TypeScript's `node10` resolution, which reads no `exports`.
  const typesVersions = { '*': Object.fromEntries(present.map((entry) => [entry, [`./dist/${entry}.gen.d.ts`]])) };
  const packageJson = {
    '//': sourcesNote(ir.documents),
    name: packageName(ir),
    version: ir.version,
    description: `Types, validators, client and server stubs for ${ir.title}${ir.serviceVersion === undefined ? '' : ` (Service-Version ${ir.serviceVersion})`}.`,
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    exports,
    typesVersions,
    // `ws` is the client's WebSocket in Node 20 only, loaded with `import()`: browser bundles leave it out.
    browser: { ws: false },
    // No module does anything at load but define its exports.
    sideEffects: false,
    // The compiled JavaScript and declarations only: the .d.ts files carry no map back to the sources. CHANGELOG.md
    // is written by `casi release`, when it runs.
    files: ['dist', 'cjs', 'README.md', 'LICENSE', 'CHANGELOG.md'],
    publishConfig: { access: 'public' },
    scripts: { build: 'tsc -p tsconfig.json', prepack: 'npm run build' },
    dependencies: { 'eventsource-parser': '^3.1.1', 'openapi-fetch': '^0.17.0' },
    peerDependencies: { fastify: '^5.0.0', ws: '^8.0.0' },
    peerDependenciesMeta: { fastify: { optional: true }, ws: { optional: true } },
    devDependencies: {
      '@types/node': '^20.0.0',
      '@types/ws': '^8.0.0',
      fastify: '^5.0.0',
      typescript: '5.9.3',
      ws: '^8.0.0',
    },
  };
  const tsconfig = {
    '//': sourcesNote(ir.documents),
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      strict: true,
      declaration: true,
      skipLibCheck: true,
      outDir: 'dist',
      rootDir: 'src',
      types: ['node'],
    },
    include: ['src'],
  };
  return [
    { path: 'package.json', content: packageJsonText(packageJson) },
    { path: 'tsconfig.json', content: stableJson(tsconfig) },
    { path: 'README.md', content: readme(ir, present, files) },
    { path: 'LICENSE', content: LICENSE },
    ...present.map((entry) => commonJsDeclaration(entry)),
  ];
}

/**
 * `cjs/<entry>.d.cts`: the entry's declarations as a CommonJS module. TypeScript (`module: node16`) refuses a
 * CommonJS import of an ES module, which Node ≥ 20.19 performs; the one re-export tells it otherwise.
 */
function commonJsDeclaration(entry: string): EmittedFile {
  return withHeader(
    `cjs/${entry}.d.cts`,
    `// @ts-ignore TS1479: Node 20.19+ loads this ES module with require().\nexport * from '../dist/${entry}.gen.js';\n`,
  );
}

/**
 * `stableJson` of the package.json (keys sorted at every level), except that each `exports` entry keeps its
 * conditions in the order given: resolvers take the first condition that matches.
 */
function packageJsonText(packageJson: { readonly exports: Record<string, unknown> }): string {
  const sorted = JSON.parse(stableJson(packageJson)) as { exports: unknown };
  sorted.exports = packageJson.exports;
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

function readme(ir: Ir, present: readonly (typeof ENTRIES)[number][], files: readonly EmittedFile[]): string {
  return [
    `<!-- ${sourcesNote(ir.documents)} -->`,
    `# ${packageName(ir)}`,
    '',
    `Generated from the ${ir.title} specification, version ${ir.version}${ir.serviceVersion === undefined ? '' : ` (\`Service-Version: ${ir.serviceVersion}\`)`}.`,
    '',
    '| import | what it holds |',
    '|---|---|',
    ...present.map((entry) => `| \`${packageName(ir)}/${entry}\` | ${ENTRY_TEXT[entry]} |`),
    '',
    ...(present.includes('client') ? usageSections(ir, packageName(ir), files) : []),
    ...(present.includes('client') && ir.operations.length > 0 ? CLIENT_OPTIONS : []),
    '## Module format',
    '',
    'The package is ESM (`"type": "module"`), with a `.d.ts` beside every module. On Node ≥ 20.19, the version it',
    `requires, CommonJS code can load it with \`require\` too: \`const { createClient } = require('${packageName(ir)}/client');\`.`,
    'TypeScript finds its types under every `moduleResolution`: `nodenext`, `node16` (CommonJS files included),',
    '`bundler` and `node10`.',
    '',
    '## Optional peer dependencies',
    '',
    'Install those you use:',
    '',
    '| peer | needed for |',
    '|---|---|',
    '| `fastify` ^5 | `…/server`: `registerRoutes(app, handlers)` registers the routes on your Fastify 5 instance |',
    "| `ws` ^8 | the client's WebSocket session, `session()`, on Node 20 (Node ≥ 22 and browsers have a global `WebSocket`); the server's WebSocket routes (a server that only answers HTTP runs without it) |",
    '',
    'The REST calls, the SSE stream, the types and the validators need neither. For browsers, the package.json maps',
    '`ws` to `false` under `browser`, so that bundlers (esbuild, webpack, Vite, …) build the client without it.',
    '',
  ].join('\n');
}

/** The client options section of the README. */
const CLIENT_OPTIONS: readonly string[] = [
  '## Client options',
  '',
  '- `baseUrl` and `apiKey` default to the `CASI_BASE_URL` and `CASI_API_KEY` environment variables where there is a',
  '  `process` (not in browsers); with no base URL at all, `createClient` throws a `CasiError` naming both.',
  "- Each call takes `{ headers, signal, timeoutMs, maxRetries }` last. `headers` are set over the client's (names",
  '  compared without case; `null` removes one); event streams and (with `ws`) sessions take `headers` too.',
  '- A REST method returns an `ApiPromise`: `await` gives the body, `.withResponse()` gives `{ data, response }`',
  '  (status, headers), `.asResponse()` the answer as a `Response` whose body can be read.',
  '- `onRequest(info)` and `onResponse(info)` see each attempt (method, url, headers with credentials `[redacted]`,',
  '  attempt number; then status, `durationMs`, or the `error` when no answer came). `logLevel` (`off`, `warn`: failed',
  '  attempts, `info`: every answer, `debug`: every request too; default `CASI_LOG`) logs to `logger` (default `console`).',
  '- List methods return a paginator: `for await` over items, `.toArray()`, `.take(n)`, `.pages()`.',
  "- `verifyWebhook(rawBody, headers, secret)` checks a webhook delivery's `Casi-Signature` header",
  '  (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, at most 300 s old by default) with Web Crypto and',
  '  returns the parsed body, or throws `WebhookVerificationError`.',
  '',
];

const ENTRY_TEXT: Record<(typeof ENTRIES)[number], string> = {
  types: 'REST types (`paths`, `components`, `operations`), a named type per schema, and the event unions',
  validators: 'one precompiled validator per schema and per message, e.g. `validateServerEvent`',
  client: 'the typed client: REST methods by resource, SSE event stream, WebSocket session',
  server: 'a typed `Handlers` interface and a Fastify plugin that validates every request',
  channels: "the AsyncAPI channels' message types and, for WebSocket channels, a typed `connect<Channel>(options)`",
  'channel-routes': '`registerChannels(app, handlers)`: the WebSocket channels served on Fastify, messages validated',
};

/** The MIT License, as `"license": "MIT"` says (no header line: license detectors read the text as it is). */
const LICENSE = `MIT License

Copyright (c) ${LICENSE_HOLDER}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
