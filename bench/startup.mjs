// Benchmark: validator start-up in a fresh process, from import to the first validated server event: the
// generated module vs ajv compiling the same schemas at run time. Both sides are esbuild bundles (one file each).
// Usage: node bench/startup.mjs [runs]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleForNode, nodeJsonRuns, ROOT, registerTypeScript, resultRow, stats, writeSection } from './lib.mjs';

const runs = Number(process.argv[2] ?? 9);
await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { ir, cases } = await loadFixtures(ROOT);
const event = cases.find((c) => c.schema === 'ServerEvent')?.valid[0];

const dir = mkdtempSync(join(tmpdir(), 'casi-bench-startup-'));
try {
  const eventFile = join(dir, 'event.json');
  const irFile = join(dir, 'ir.json');
  writeFileSync(eventFile, JSON.stringify({ event }));
  // The parsed OpenAPI document is not needed to build ajv; leaving it out keeps the JSON to the schemas.
  writeFileSync(irFile, JSON.stringify({ event, ir: { ...ir, openapi: {} } }));
  const generatedBundle = await bundleForNode('generated/src/validators.gen.ts');
  // The module the client loads for streams and sessions: the two event envelopes only.
  const eventsBundle = await bundleForNode('generated/src/validators.events.gen.ts');
  // ajv itself in the bundle, where the generator loads it from its cached bundle of packages. The YAML parsers
  // are reached through `generator/load` but only used to read files, which this entry never does: `yaml` stays out.
  const ajvBundle = await bundleForNode('bench/startup-ajv.ts', {
    replace: {
      'generator/packages.ts':
        "export const packages = { ajv2020: require('ajv/dist/2020.js'), ajvStandalone: require('ajv/dist/standalone/index.js'), jsYaml: require('js-yaml'), yaml: {} };",
    },
  });

  const probes = {
    generated: [generatedBundle, eventFile],
    'generated-events': [eventsBundle, eventFile],
    'ajv-one': [ajvBundle, irFile],
    'ajv-all': [ajvBundle, irFile],
  };
  // One process at a time, the four interleaved (a warm-up each first) so that machine noise falls on each alike.
  const samples = { generated: [], 'generated-events': [], 'ajv-one': [], 'ajv-all': [] };
  for (let i = 0; i < runs; i++) {
    for (const [mode, args] of Object.entries(probes)) {
      const [sample] = nodeJsonRuns(['bench/startup-probe.mjs', mode, ...args], { runs: 1, warmup: i === 0 });
      samples[mode].push(sample.ms);
    }
  }
  const median = (name) => stats(samples[name]).median;
  const ratio = (name, base = 'generated') => median(name) / median(base);
  writeSection('startup', {
    title: 'Validator start-up (fresh process)',
    note: [
      'Each sample is a fresh `node` process timing, with `performance.now()`, the import of an esbuild bundle up to',
      'the first validated `ServerEvent` (the `conversation.setup` example), reading its input JSON included.',
      'Generated: the bundle of `generated/src/validators.gen.ts` (every validator precompiled, request parts',
      'included). ajv: a bundle of ajv 8 + `createAjv` from `generator/schema/ajv.ts` (with the formats of',
      '`templates/shared/formats.ts`, as the generated code), given the IR as JSON, checking the schemas against the',
      "JSON Schema meta-schema it compiles first, as ajv does at run time (not the generator's precompiled copy);",
      '"all" compiles every component schema and message before validating (what the generated module holds),',
      '"ServerEvent only" compiles just what the first validation needs (the best case for ajv), and is set',
      'against the generated events module (`generated/src/validators.events.gen.ts`: `ServerEvent` and',
      '`ClientEvent`, what the client loads for streams and sessions), which holds about as much.',
      "Ratio: time over the generated module's of the same scope (above 1 means generated starts faster).",
    ].join(' '),
    goal: '≥ 10× faster than ajv compiling the same schemas',
    command: `node bench/startup.mjs ${runs}`,
    rows: [
      resultRow('generated module', samples.generated, 'ms', 1),
      resultRow('ajv, compile all schemas', samples['ajv-all'], 'ms', ratio('ajv-all')),
      resultRow('generated events module (ServerEvent and ClientEvent)', samples['generated-events'], 'ms', 1),
      {
        ...resultRow('ajv, compile ServerEvent only', samples['ajv-one'], 'ms', ratio('ajv-one', 'generated-events')),
        ratio: `${ratio('ajv-one', 'generated-events').toFixed(2)}× (events module); ${ratio('ajv-one').toFixed(2)}× (whole)`,
      },
    ],
  });
  console.log(
    `generated ${median('generated').toFixed(1)} ms, events module ${median('generated-events').toFixed(1)} ms, ajv all ${median('ajv-all').toFixed(1)} ms (${ratio('ajv-all').toFixed(1)}×), ajv ServerEvent ${median('ajv-one').toFixed(1)} ms (${ratio('ajv-one', 'generated-events').toFixed(1)}× the events module)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
