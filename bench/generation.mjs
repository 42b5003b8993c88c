// Benchmark: whole-package generation (`casi generate`, both specs) against openapi-typescript producing types
// alone from the same OpenAPI document; each run is a cold process. Usage: node bench/generation.mjs [runs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, ROOT, stats, timeProcess, writeSection } from './lib.mjs';

const runs = Number(process.argv[2] ?? 5);
const out = mkdtempSync(join(tmpdir(), 'casi-bench-'));
try {
  const casi = stats(
    timeProcess([process.execPath, join(ROOT, 'bin/casi.mjs'), 'generate', '--out', join(out, 'pkg')], { runs }),
  );
  const oat = stats(
    timeProcess(
      [
        process.execPath,
        join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        'spec/openapi.yaml',
        '-o',
        join(out, 'oat.ts'),
      ],
      { runs },
    ),
  );
  const row = (tool, s) => ({
    tool,
    median: fmt(s.median, 'ms'),
    range: `${fmt(s.min, 'ms')} – ${fmt(s.max, 'ms')}`,
    ratio: `${(s.median / oat.median).toFixed(2)}×`,
  });
  writeSection('generation', {
    title: 'Generation (cold process)',
    note: "`casi generate` checks both specs (Redocly, AsyncAPI parser) and emits the whole package: types (through openapi-typescript), precompiled validators, client, server stubs and runtime. openapi-typescript emits the REST types alone. Ratio: time over openapi-typescript's.",
    goal: 'whole package in ≤ 3× openapi-typescript (types only)',
    command: `node bench/generation.mjs ${runs}`,
    rows: [row('`casi generate` (whole package)', casi), row('`openapi-typescript` (types only)', oat)],
  });
  console.log(
    `casi ${casi.median.toFixed(0)} ms, openapi-typescript ${oat.median.toFixed(0)} ms, ratio ${(casi.median / oat.median).toFixed(2)}`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
