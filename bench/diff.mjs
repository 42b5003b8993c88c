// Benchmark: `casi diff` on our specs (both documents, one edit apart; and against HEAD through git) beside
// api-smart-diff alone, the library it builds on, comparing the same two OpenAPI documents in a process of its own.
// No other tool compares OpenAPI and AsyncAPI together; every run is a cold process, the tools take turns in each
// round. Usage: node bench/diff.mjs [rounds]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, ROOT, stats, timeOnce, writeSection } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 5);
const work = mkdtempSync(join(tmpdir(), 'casi-bench-diff-'));
const casi = join(ROOT, 'bin/casi.mjs');

/** The old version: our specs, the conversation with one more required member (a breaking removal to report). */
const old = join(work, 'old');
mkdirSync(old);
const openapi = readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8');
const edited = openapi.replace(
  '        - sentiment\n      properties:\n',
  '        - sentiment\n        - legacy_id\n      properties:\n        legacy_id:\n          type: string\n',
);
if (edited === openapi) throw new Error('the edit no longer applies to spec/openapi.yaml');
writeFileSync(join(old, 'openapi.yaml'), edited);
writeFileSync(join(old, 'asyncapi.yaml'), readFileSync(join(ROOT, 'spec/asyncapi.yaml')));

/** api-smart-diff alone: parse both OpenAPI documents and compare them. */
const library = join(ROOT, 'bench/.diff-library.mjs');
writeFileSync(
  library,
  [
    "import { readFileSync } from 'node:fs';",
    "import { apiDiff } from 'api-smart-diff';",
    "import yaml from 'js-yaml';",
    "const read = (f) => yaml.load(readFileSync(f, 'utf8'));",
    `const diffs = apiDiff(read(${JSON.stringify(join(old, 'openapi.yaml'))}), read(${JSON.stringify(join(ROOT, 'spec/openapi.yaml'))}));`,
    "if (diffs.length === 0) throw new Error('no change found');",
  ].join('\n'),
);

const tools = [
  {
    id: 'folder',
    label: '`casi diff --base <folder>` (both documents, one breaking edit)',
    command: [process.execPath, casi, 'diff', '--base', old],
  },
  {
    id: 'ref',
    label: '`casi diff --base HEAD` (both documents read through git)',
    command: [process.execPath, casi, 'diff', '--base', 'HEAD'],
  },
  {
    id: 'library',
    label: 'api-smart-diff alone (the OpenAPI document only, no placement or rules)',
    command: [process.execPath, library],
  },
];

try {
  const samples = Object.fromEntries(tools.map((t) => [t.id, []]));
  // Round -1 warms the file system cache.
  for (let round = -1; round < rounds; round++)
    for (const tool of tools) {
      const ms = timeOnce(tool.command);
      if (round >= 0) samples[tool.id].push(ms);
    }
  const peer = stats(samples.library).median;
  const rows = tools.map((tool) => {
    const s = stats(samples[tool.id]);
    return {
      tool: tool.label,
      median: fmt(s.median, 'ms'),
      range: `${fmt(s.min, 'ms')} – ${fmt(s.max, 'ms')}`,
      ratio: tool.id === 'library' ? '1.00× (peer)' : `${(s.median / peer).toFixed(2)}× the library alone`,
    };
  });
  writeSection('diff', {
    title: 'Spec diff (cold process)',
    note:
      '`casi diff` compares both documents (the AsyncAPI one through its events view), applies our rules and places ' +
      'each change at file:line. The peer is api-smart-diff itself on the OpenAPI document alone: no other ' +
      'installable tool compares OpenAPI and AsyncAPI together (oasdiff is a Go binary, @asyncapi/diff reads ' +
      'AsyncAPI only). Ratio: casi over the library alone.',
    goal: 'a few seconds on our specs',
    command: `node bench/diff.mjs ${rounds}`,
    rows,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(library, { force: true });
}
