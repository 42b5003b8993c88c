// Benchmark: generation time per document of the shared corpus of real API descriptions (../shared/spec-corpus),
// each alone: `casi generate` (types, validators, client, server) beside openapi-typescript (types) and
// @hey-api/openapi-ts (types, SDK, zod schemas) on the OpenAPI ones; the AsyncAPI ones have no peer here. Every run
// is a cold process; the tools take turns in each round. Usage: node bench/corpus-generation.mjs [rounds]
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, ROOT, stats, timeOnce, writeSection } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 3);
const corpus = join(ROOT, '../shared/spec-corpus');
const work = mkdtempSync(join(tmpdir(), 'casi-corpus-bench-'));
const documents = readdirSync(corpus)
  .filter((name) => /\.(openapi|asyncapi)\.(ya?ml|json)$/.test(name))
  .sort();

/** The commands of every tool for one document (peers for OpenAPI documents only). */
function toolsFor(name) {
  const file = join(corpus, name);
  const out = join(work, name);
  const casi = {
    id: 'casi',
    command: [
      process.execPath,
      join(ROOT, 'bin/casi.mjs'),
      'generate',
      `--${name.includes('.openapi.') ? 'openapi' : 'asyncapi'}`,
      file,
      '--out',
      `${out}-casi`,
    ],
  };
  if (!name.includes('.openapi.')) return [casi];
  const heyConfig = join(work, `${name}.hey.config.mjs`);
  const plugins = ['@hey-api/typescript', '@hey-api/sdk', 'zod', '@hey-api/client-fetch'];
  const config = { input: file, output: `${out}-hey`, plugins, logs: { level: 'silent' } };
  writeFileSync(heyConfig, `export default ${JSON.stringify(config)};\n`);
  return [
    casi,
    {
      id: 'oat',
      command: [
        process.execPath,
        join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        file,
        '-o',
        `${out}-oat.ts`,
      ],
    },
    {
      id: 'hey',
      command: [process.execPath, join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '-f', heyConfig],
    },
  ];
}

try {
  const rows = [];
  for (const name of documents) {
    const tools = toolsFor(name);
    const samples = Object.fromEntries(tools.map((t) => [t.id, []]));
    const failed = new Set();
    // Round -1 warms the file system cache.
    for (let round = -1; round < rounds; round++)
      for (const tool of tools) {
        if (failed.has(tool.id)) continue;
        try {
          const ms = timeOnce(tool.command);
          if (round >= 0) samples[tool.id].push(ms);
        } catch {
          failed.add(tool.id);
        }
      }
    const median = (id) => (samples[id]?.length ? stats(samples[id]).median : undefined);
    const casi = median('casi');
    const shown = (id) => (failed.has(id) ? 'failed' : median(id) === undefined ? '—' : fmt(median(id), 'ms'));
    const ratio = (id) => (casi && median(id) ? `${(casi / median(id)).toFixed(2)}×` : '—');
    rows.push({
      tool: `${name}: casi ${shown('casi')}; openapi-typescript ${shown('oat')}; hey-api ${shown('hey')}`,
      median: shown('casi'),
      range: casi ? `${fmt(stats(samples.casi).min, 'ms')} – ${fmt(stats(samples.casi).max, 'ms')}` : '—',
      ratio: `${ratio('oat')} oat, ${ratio('hey')} hey-api`,
    });
    process.stderr.write(`${name} done\n`);
  }
  writeSection('corpus-generation', {
    title: 'Generation per corpus document (cold process)',
    note:
      'Each document of `../shared/spec-corpus/` alone. casi checks it (as `casi check` does, without the style rules) and emits the whole package (types, ' +
      'validators, client, server, runtime); openapi-typescript emits types; hey-api emits types, an SDK and zod ' +
      "schemas. AsyncAPI documents have no peer here. Ratio: casi's median over each peer's.",
    goal: 'casi ≤ 1.0× hey-api on every document',
    command: `node bench/corpus-generation.mjs ${rounds}`,
    rows,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
