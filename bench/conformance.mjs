// Benchmark: the HTTP checks of `casi conformance` (the any-spec run on spec/openapi.yaml: examples, generated and
// invalid requests, every answer checked) against the reference server, direct and through Prism 5.14's validating
// proxy in front of the same server. Cases per second direct; what the proxy adds per case.
// Usage: node bench/conformance.mjs [rounds] [runs per operation]
import { resolve } from 'node:path';
import { ROOT, registerTypeScript, resultRow, startChild, stats, writeSection } from './lib.mjs';
import { API_KEY, startReference } from './reference-setup.mjs';

const rounds = Number(process.argv[2] ?? 9);
const runs = Number(process.argv[3] ?? 10);
await registerTypeScript();
const { usableModel } = await import('../conformance/usable-model.ts');
const { runAnySpec } = await import('../conformance/any-spec/run.ts');
// The OpenAPI document alone: its SSE operations are left out, so no stream is held open through the proxy.
const { ir } = await usableModel({ openapi: resolve(ROOT, 'spec/openapi.yaml') });

/** One conformance run against `baseUrl`: its cases, failed cases and wall time in ms. */
async function conformanceRun(baseUrl) {
  const start = performance.now();
  const { report } = await runAnySpec(ir, {
    baseUrl,
    auth: { kind: 'bearer', token: API_KEY },
    runs,
    seed: 1,
    log: () => undefined,
  });
  const ms = performance.now() - start;
  const cases = report.checks.reduce((sum, check) => sum + report.cases(check), 0);
  return { cases, failed: report.totalFailed, ms };
}

const servers = [];
try {
  const reference = await startReference();
  servers.push(reference);
  const prism = await startChild(
    'node_modules/@stoplight/prism-cli/dist/index.js',
    ['proxy', '-h', '127.0.0.1', '-p', '0', 'spec/openapi.yaml', reference.baseUrl],
    { isReady: (line) => /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1] },
  );
  servers.push(prism);
  const targets = { direct: reference.baseUrl, proxy: `http://127.0.0.1:${prism.ready}` };
  const perSecond = { direct: [], proxy: [] };
  const msPerCase = { direct: [], proxy: [] };
  const counts = { direct: [], proxy: [] };
  for (const url of Object.values(targets)) await conformanceRun(url);
  // Alternating, so that machine noise falls on both alike; the same seed sends the same requests each time.
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of Object.entries(targets)) {
      const run = await conformanceRun(url);
      perSecond[name].push((run.cases / run.ms) * 1000);
      msPerCase[name].push(run.ms / run.cases);
      counts[name].push(run);
      console.log(`${name}: ${run.cases} cases (${run.failed} failed) in ${run.ms.toFixed(0)} ms`);
    }
  }
  const median = (sample) => stats(sample).median;
  const added = msPerCase.proxy.map((ms, i) => ms - (msPerCase.direct[i] ?? Number.NaN));
  const last = (name) => counts[name].at(-1);
  writeSection('conformance', {
    title: 'Conformance checks, direct and through Prism',
    note: [
      `The HTTP checks of \`casi conformance\` (the any-spec run on spec/openapi.yaml alone, so no SSE stream:`,
      `each operation's examples, ${runs} generated requests and up to ${runs} invalid ones, every answer checked;`,
      "a case is one check's verdict on one answer; seed 1, the same requests every run) against the bundled",
      'reference server (response validation on), then the',
      `same run through Prism 5.14's validating proxy (\`prism proxy spec/openapi.yaml <reference URL>\`, it checks`,
      'every request and answer and forwards them). One warm-up run each, then',
      `${rounds} rounds alternating direct and proxy; the checks run in this process, each server in its own child`,
      `(2 cores in all). ${last('direct')?.cases} cases per run, ${last('direct')?.failed} failed direct and`,
      `${last('proxy')?.failed} through the proxy. Time Prism adds per case (median of the per-round differences):`,
      `${median(added).toFixed(2)} ms, against ${median(msPerCase.direct).toFixed(2)} ms per case direct.`,
      'Ratio: cases per second over the direct run.',
    ].join(' '),
    goal: 'none; the cost of checking through a validating proxy, side by side',
    command: `node bench/conformance.mjs ${rounds} ${runs}`,
    rows: [
      resultRow('`casi conformance` HTTP checks, direct', perSecond.direct, 'cases/s', 1),
      resultRow(
        'the same through Prism 5.14 proxy',
        perSecond.proxy,
        'cases/s',
        median(perSecond.proxy) / median(perSecond.direct),
      ),
    ],
  });
} finally {
  await Promise.all(servers.map((s) => s.close()));
}
