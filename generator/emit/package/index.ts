/** Emits the package around the generated sources: package.json, its build tsconfig and a README. */
import type { Ir } from '../../ir/model.js';
import { type EmittedFile, GENERATED_HEADER, stableJson } from '../shared/files.js';

/** The npm name of the generated package. */
export const PACKAGE_NAME = '@casi/conversational-agent-service';

/** Entry points: `./<entry>` of the package maps to `src/<entry>.gen.ts`, when that file is emitted. */
const ENTRIES = ['types', 'validators', 'client', 'server'] as const;

/** Builds the package files for the sources in `files`. */
export function emitPackage(ir: Ir, files: readonly EmittedFile[]): EmittedFile[] {
  const present = ENTRIES.filter((entry) => files.some((f) => f.path === `src/${entry}.gen.ts`));
  const exports = Object.fromEntries(
    present.map((entry) => [`./${entry}`, { types: `./dist/${entry}.gen.d.ts`, import: `./dist/${entry}.gen.js` }]),
  );
  const packageJson = {
    '//': GENERATED_HEADER,
    name: PACKAGE_NAME,
    version: ir.version,
    description: `Types, validators, client and server stubs for ${ir.title} (Service-Version ${ir.serviceVersion}).`,
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    exports,
    files: ['dist', 'src', 'README.md'],
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
    '//': GENERATED_HEADER,
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
  const readme = [
    `<!-- ${GENERATED_HEADER} -->`,
    `# ${PACKAGE_NAME}`,
    '',
    `Generated from the ${ir.title} specification, version ${ir.version} (\`Service-Version: ${ir.serviceVersion}\`).`,
    '',
    '| import | what it holds |',
    '|---|---|',
    ...present.map((entry) => `| \`${PACKAGE_NAME}/${entry}\` | ${ENTRY_TEXT[entry]} |`),
    '',
  ].join('\n');
  return [
    { path: 'package.json', content: stableJson(packageJson) },
    { path: 'tsconfig.json', content: stableJson(tsconfig) },
    { path: 'README.md', content: readme },
  ];
}

const ENTRY_TEXT: Record<(typeof ENTRIES)[number], string> = {
  types: 'REST types (`paths`, `components`, `operations`), a named type per schema, and the event unions',
  validators: 'one precompiled validator per schema and per message, e.g. `validateServerEvent`',
  client: 'the typed client: REST methods by resource, SSE event stream, WebSocket session',
  server: 'a typed `Handlers` interface and a Fastify plugin that validates every request',
};
