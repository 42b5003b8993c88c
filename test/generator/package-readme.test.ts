/**
 * The generated package's README: its ```ts blocks, read as one module with the package's imports pointed at the
 * generated sources, type-check against the package generated from the same spec — ours and corpus documents, REST
 * and AsyncAPI — so
 * that a sample drifting from the API fails here; and each spec's README has the sections its operations allow. The
 * TypeScript samples of the HTML reference are type-checked the same way.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSnippet } from '../../generator/docs/code-samples.js';
import { buildEventsDoc } from '../../generator/docs/events-model.js';
import { buildIr } from '../../generator/ir/build.js';
import { loadSpecs } from '../../generator/load/index.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { compileStrict } from './compile-strict.js';
import { ROOT, SPEC } from './helpers.js';

const CORPUS = join(ROOT, '../shared/spec-corpus');

// Under the project, so that the generated code resolves the project's packages (openapi-fetch, ws, …).
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The ```ts blocks of a README, in order. */
function tsBlocks(readme: string): string[] {
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** The blocks as one module of `src/`: `<package>/<entry>` imports become `./<entry>.gen.js`. */
function samplesModule(readme: string, packageName: string): string {
  const escaped = packageName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const imports = new RegExp(`from '${escaped}/([a-z-]+)'`, 'g');
  return `${tsBlocks(readme).join('\n').replace(imports, "from './$1.gen.js'")}\nexport {};\n`;
}

/** The packages generated so far, by name: the README and the HTML samples of a spec share one. */
const packages = new Map<string, ReturnType<typeof generatedOnce>>();

/** The package of a spec in `work/<name>`, generated on first use; its folder, README and package name. */
function generated(name: string, specs: { openapi?: string; asyncapi?: string }) {
  const pkg = packages.get(name) ?? generatedOnce(name, specs);
  packages.set(name, pkg);
  return pkg;
}

/** Generates the package of a spec into `work/<name>`. */
async function generatedOnce(name: string, specs: { openapi?: string; asyncapi?: string }) {
  const options = resolveOptions({ ...specs, out: join(work, name) });
  const { files } = await generate(options);
  await writeOutput(options.out, files);
  const dir = options.out;
  const packageName = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name as string;
  return { dir, readme: readFileSync(join(dir, 'README.md'), 'utf8'), packageName };
}

/** Writes `module` as `src/readme-samples.ts` of `dir` and type-checks it strictly. */
function check(dir: string, module: string): string[] {
  writeFileSync(join(dir, 'src/readme-samples.ts'), module);
  return compileStrict(dir, ['src/readme-samples.ts']);
}

describe("the README of our spec's package", () => {
  let pkg: Awaited<ReturnType<typeof generated>>;
  beforeAll(async () => {
    pkg = await generated('casi', SPEC);
  }, 120_000);

  it('has every usage section, with the names of the generated client', () => {
    const headings = pkg.readme.match(/^## .*/gm) ?? [];
    expect(headings.slice(0, 11)).toEqual([
      '## Install',
      '## Create a client',
      '## A call',
      '## A list',
      '## A stream',
      '## A session',
      '## Errors',
      '## Retries and timeouts',
      '## The raw response',
      '## In the browser',
      '## Validators on their own',
    ]);
    expect(pkg.readme).toContain(`npm install ${pkg.packageName}`);
    expect(pkg.readme).toContain("await client.conversationalAgents.retrieve('ca_7Qk2Lm9Xa')");
    expect(pkg.readme).toContain('client.conversations.list().take(10)');
    expect(pkg.readme).toContain("client.conversations.events('conv_9Xr4Tb2Kp', { token: 'conversation-token' })");
    expect(pkg.readme).toContain("client.conversations.session('conv_9Xr4Tb2Kp', { token: 'conversation-token' })");
    expect(pkg.readme).toMatch(/session\.on\('[a-z.]+', \(event\) =>/);
    expect(pkg.readme).toContain('session.send({');
    expect(pkg.readme).toContain('CASI_BASE_URL');
    expect(pkg.readme).toContain('{ maxRetries: 0, timeoutMs: 5_000 }');
    expect(pkg.readme).toContain('.withResponse()');
    expect(pkg.readme).toMatch(/import \{ validate\w+ \} from '@casi\/conversational-agent-service\/validators'/);
  });

  it('is the README committed in generated/', () => {
    expect(readFileSync(join(ROOT, 'generated/README.md'), 'utf8')).toBe(pkg.readme);
  });

  it('has TypeScript samples that type-check against the package', () => {
    expect(tsBlocks(pkg.readme).length).toBeGreaterThanOrEqual(9);
    expect(check(pkg.dir, samplesModule(pkg.readme, pkg.packageName))).toEqual([]);
  }, 120_000);

  it('fails the type-check when a sample names a method the client does not have', () => {
    const drifted = pkg.readme.replace('client.conversationalAgents.retrieve(', 'client.conversationalAgents.fetch(');
    expect(drifted).not.toBe(pkg.readme);
    expect(check(pkg.dir, samplesModule(drifted, pkg.packageName)).join('\n')).toContain(
      "Property 'fetch' does not exist",
    );
  }, 120_000);
});

describe('the README of a corpus document without streams or sessions (museum)', () => {
  let pkg: Awaited<ReturnType<typeof generated>>;
  beforeAll(async () => {
    pkg = await generated('museum', { openapi: join(CORPUS, 'museum.openapi.yaml') });
  }, 120_000);

  it('leaves out the list, stream and session sections, and signs in with basic authentication', () => {
    expect(pkg.readme).toContain('## A call');
    expect(pkg.readme).not.toContain('## A list');
    expect(pkg.readme).not.toContain('## A stream');
    expect(pkg.readme).not.toContain('## A session');
    expect(pkg.readme).toContain("username: 'me', password: 'secret'");
    expect(pkg.readme).toContain("client.events.getSpecialEvent('dad4bce8-f5cb-4078-a211-995864315e39')");
  });

  it('has TypeScript samples that type-check against the package', () => {
    expect(check(pkg.dir, samplesModule(pkg.readme, pkg.packageName))).toEqual([]);
  }, 120_000);
});

describe.each([
  ['gemini-websocket', 'A WebSocket channel', "connectV1MarketdataSymbol({ params: { symbol: 'btcusd' } })"],
  ['gitter-streaming', 'A streaming channel', "streamRooms({ params: { roomId: 'roomId', resource: 'chatMessages' }"],
])('the README of the AsyncAPI corpus document %s', (name, section, call) => {
  let pkg: Awaited<ReturnType<typeof generated>>;
  beforeAll(async () => {
    pkg = await generated(name, { asyncapi: join(CORPUS, `${name}.asyncapi.yaml`) });
  }, 120_000);

  it('shows its channel through the channels module, and no REST client sections', () => {
    expect(pkg.readme).toContain(`## ${section}`);
    expect(pkg.readme).toContain(call);
    expect(pkg.readme).not.toContain('## Create a client');
    expect(pkg.readme).not.toContain('## A call');
    expect(pkg.readme).not.toContain('## A session');
    expect(pkg.readme).not.toContain('## Client options');
  });

  it('has TypeScript samples that type-check against the package', () => {
    expect(check(pkg.dir, samplesModule(pkg.readme, pkg.packageName))).toEqual([]);
  }, 120_000);
});

describe("the HTML reference's TypeScript samples", () => {
  it.each([
    ['casi', SPEC],
    ['museum', { openapi: join(CORPUS, 'museum.openapi.yaml') }],
    ['styles', { openapi: join(CORPUS, 'readme-parameter-styles.openapi.yaml') }],
    ['petstore3', { openapi: join(CORPUS, 'swagger-petstore3.openapi.yaml') }],
  ])(
    'type-check against the package of %s, for every operation and every event',
    async (name, specs) => {
      const loaded = await loadSpecs(specs.openapi, 'asyncapi' in specs ? specs.asyncapi : undefined);
      const ir = buildIr(loaded);
      const pkg = await generated(name, specs);
      const events = loaded.asyncapi ? buildEventsDoc(ir, loaded.asyncapi).events : [];
      const sources = [
        ...ir.operations.map((op) => clientSnippet(ir, op)),
        ...events.flatMap((event) => event.samples.map((sample) => sample.source)),
      ];
      expect(sources.length).toBeGreaterThanOrEqual(ir.operations.length + ir.events.length);
      const imports = new RegExp(`from '${pkg.packageName.replace(/[/.]/g, '\\$&')}/([a-z-]+)'`, 'g');
      sources.forEach((source, i) => {
        const module = `${source.replace(imports, "from './$1.gen.js'")}\nexport {};\n`;
        writeFileSync(join(pkg.dir, `src/docs-sample-${i}.ts`), module);
      });
      expect(compileStrict(pkg.dir, ['src/docs-sample-*.ts'])).toEqual([]);
    },
    180_000,
  );
});
