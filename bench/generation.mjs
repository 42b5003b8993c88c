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

/** A fresh copy of both specs (in a folder named by `tag`) with a unique comment, as after an edit. */
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
    label: '`casi generate`, specs just edited (whole package, check included)',
    command: (round) => {
      const dir = editedSpecs(round);
      const spec = ['--openapi', join(dir, 'openapi.yaml'), '--asyncapi', join(dir, 'asyncapi.yaml')];
      return [process.execPath, casi, 'generate', ...spec, '--out', join(work, 'edited')];
    },
  },
  {
    id: 'check',
    label: '`casi check` alone, specs just edited (the check of `generate` and the style rules; nothing emitted)',
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
  // Round -1 warms every tool (the file system cache).
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
      '`casi generate` checks both specs (their structure: each against the published JSON Schema of its ' +
      'specification, with the OpenAPI path rules; cross-document consistency, every schema compiled, every example ' +
      'against its schema) and ' +
      `emits the whole package (${kb(output.edited)} in ${readdirSync(join(work, 'edited'), { recursive: true }).length} ` +
      'entries): REST and event types (through openapi-typescript), precompiled validators for every schema, message ' +
      'and request part, the client, the server stubs and the runtime. openapi-typescript emits the REST types ' +
      `alone (${kb(output.oat)}); @hey-api/openapi-ts emits types, an SDK and zod schemas (${kb(output.hey)}). ` +
      'Every run is a fresh process; each round runs every tool once, in turn, after one warm-up round. "Specs just ' +
      'edited" copies both specs with a unique comment for each run, as after an edit. The CLI runs from `dist/`, ' +
      'compiled once by `npm run build`. "`casi check` alone" is the check of a generate run by itself, with the style ' +
      "rules generate leaves out (Redocly's `recommended`, the AsyncAPI parser's whole ruleset). Ratio: median time over " +
      "openapi-typescript's and over hey-api's.",
    goal: 'whole package after an edit in ≤ 1.5× hey-api, which emits less',
    command: `node bench/generation.mjs ${rounds}`,
    rows,
  });
  for (const tool of tools) console.log(`${tool.id}: ${s[tool.id].median.toFixed(0)} ms`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
