// Benchmark: whole-package generation (`casi generate`, both specs) beside openapi-typescript (types alone) and
// @hey-api/openapi-ts (types, SDK and zod schemas) on the same OpenAPI document; every run is a cold process, and
// the tools take turns in each round. Usage: node bench/generation.mjs [rounds]
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, ROOT, stats, timeOnce, writeSection } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 5);
const work = mkdtempSync(join(tmpdir(), 'casi-bench-'));
const specs = join(work, 'spec');
const casi = join(ROOT, 'bin/casi.mjs');

/**
 * A fresh copy of both specs (in a folder named by `tag`) with a unique comment, as after an edit: the check cache
 * cannot know it.
 */
function editedSpecs(tag) {
  const dir = `${specs}-${tag}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of ['openapi.yaml', 'asyncapi.yaml']) {
    copyFileSync(join(ROOT, 'spec', name), join(dir, name));
  }
  appendFileSync(join(dir, 'openapi.yaml'), `# edit ${tag} ${Date.now()}\n`);
  return dir;
}

const heyConfig = join(work, 'openapi-ts.config.mjs');
writeFileSync(
  heyConfig,
  `export default ${JSON.stringify({
    input: join(ROOT, 'spec/openapi.yaml'),
    output: join(work, 'hey'),
    plugins: ['@hey-api/typescript', '@hey-api/sdk', 'zod', '@hey-api/client-fetch'],
    logs: { level: 'silent' },
  })};\n`,
);

const tools = [
  {
    id: 'edited',
    label: '`casi generate`, specs just edited (whole package; check runs)',
    command: (round) => {
      const dir = editedSpecs(round);
      const spec = ['--openapi', join(dir, 'openapi.yaml'), '--asyncapi', join(dir, 'asyncapi.yaml')];
      return [process.execPath, casi, 'generate', ...spec, '--out', join(work, 'edited')];
    },
  },
  {
    id: 'check',
    label: '`casi check` alone, specs just edited (the validation of both specs that `generate` runs; nothing emitted)',
    command: (round) => {
      const dir = editedSpecs(`check-${round}`);
      return [
        process.execPath,
        casi,
        'check',
        '--openapi',
        join(dir, 'openapi.yaml'),
        '--asyncapi',
        join(dir, 'asyncapi.yaml'),
      ];
    },
  },
  {
    id: 'unchanged',
    label: '`casi generate`, specs unchanged since the last check (check findings cached)',
    command: () => [process.execPath, casi, 'generate', '--out', join(work, 'unchanged')],
  },
  {
    id: 'nocache',
    label: '`casi generate` with `CASI_CACHE=0` (no caches: check runs, the CLI through tsx)',
    command: () => [process.execPath, casi, 'generate', '--out', join(work, 'nocache')],
    env: { ...process.env, CASI_CACHE: '0' },
  },
  {
    id: 'oat',
    label: '`openapi-typescript` (types only)',
    command: () => [
      process.execPath,
      join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
      'spec/openapi.yaml',
      '-o',
      join(work, 'oat.ts'),
    ],
  },
  {
    id: 'hey',
    label: '`@hey-api/openapi-ts` (types, SDK, zod schemas)',
    command: () => [process.execPath, join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '-f', heyConfig],
  },
];

/** Total bytes of the files under `dir`. */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

try {
  const samples = Object.fromEntries(tools.map((t) => [t.id, []]));
  // Round -1 warms every tool (and builds the CLI bundle, fills the check cache for the unchanged specs).
  for (let round = -1; round < rounds; round++) {
    for (const tool of tools) {
      const ms = timeOnce(tool.command(round), { env: tool.env });
      if (round >= 0) samples[tool.id].push(ms);
    }
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  const s = Object.fromEntries(tools.map((t) => [t.id, stats(samples[t.id])]));
  const output = {
    edited: bytesUnder(join(work, 'edited')),
    oat: statSync(join(work, 'oat.ts')).size,
    hey: bytesUnder(join(work, 'hey')),
  };
  const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
  const rows = tools.map((tool) => ({
    tool: tool.label,
    median: fmt(s[tool.id].median, 'ms'),
    range: `${fmt(s[tool.id].min, 'ms')} – ${fmt(s[tool.id].max, 'ms')}`,
    ratio: `${(s[tool.id].median / s.oat.median).toFixed(2)}× oat, ${(s[tool.id].median / s.hey.median).toFixed(2)}× hey-api`,
  }));
  writeSection('generation', {
    title: 'Generation (cold process)',
    note:
      '`casi generate` checks both specs (Redocly `recommended`, the AsyncAPI parser, cross-document consistency, ' +
      'every media type example against its schema) and ' +
      `emits the whole package (${kb(output.edited)} in ${readdirSync(join(work, 'edited'), { recursive: true }).length} ` +
      'entries): REST and event types (through openapi-typescript), precompiled validators for every schema, message ' +
      'and request part, the client, the server stubs and the runtime. openapi-typescript emits the REST types ' +
      `alone (${kb(output.oat)}); @hey-api/openapi-ts emits types, an SDK and zod schemas (${kb(output.hey)}). ` +
      'Every run is a fresh process; each round runs every tool once, in turn, after one warm-up round. "Specs just ' +
      'edited" copies both specs with a unique comment for each run, so the check cache misses, as after an edit; ' +
      'the CLI runs from its cached bundles, built once on first use: its own code, and, for each thread, one ' +
      "CommonJS file of the packages it uses (ts-morph, openapi-typescript, ajv; Redocly, the AsyncAPI parser), with V8's " +
      'code cache for them and the AsyncAPI meta-schema precompiled (all kept by the code of the toolkit and its ' +
      'dependencies, not by the specs, and filled in the warm-up round). "Unchanged" is a second generate of the same ' +
      'specs (as `npm test` runs `casi check` then `casi generate --check`). "`casi check` alone" is the check ' +
      'part of an edited generate run by itself: its ajv compiles the schemas that have examples, which `generate` ' +
      'shares with its validators. Ratio: median time over ' +
      "openapi-typescript's and over hey-api's.",
    goal: 'whole package in ≤ 3× openapi-typescript (types only); faster than hey-api while emitting more',
    command: `node bench/generation.mjs ${rounds}`,
    rows,
  });
  for (const tool of tools) console.log(`${tool.id}: ${s[tool.id].median.toFixed(0)} ms`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
