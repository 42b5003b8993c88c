// Benchmark: validation throughput on the spec's own examples (valid and invalid): the generated standalone
// validators vs ajv compiled at run time from the same schemas vs hand-written zod 4 schemas.
// Usage: node bench/validation.mjs [rounds]
import { Worker } from 'node:worker_threads';
import { bundleForNode, compareOps, ROOT, registerTypeScript, resultRow, stats, writeSection } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 15);
await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { createAjv, schemaId } = await import('../generator/schema/ajv.ts');
const validatorsBundle = await bundleForNode('generated/src/validators.gen.ts');
const { validators } = await import(validatorsBundle);
const raw = await import(await bundleForNode('generated/src/validators.raw.gen.ts'));
const checks = await import(await bundleForNode('generated/src/validators.checks.raw.gen.ts'));
const { zodSchemas } = await import('./zod-schemas.ts');

const { ir, cases } = await loadFixtures(ROOT);
/**
 * ajv compiled at run time with the options of the shipped validators (`createAjv`, the same formats): one
 * instance stops at the first problem (the verdict), the other lists every problem (`allErrors`, the report).
 */
const ajv = {
  check: createAjv(ir, { standalone: false, allErrors: false }),
  full: createAjv(ir, { standalone: false }),
};

/** `check(value)` as the verdict, and for a refused value the first error of `full` (a one-pass `full` without). */
function verdictThenReport(check, full, location) {
  return check === undefined
    ? (value) => full(value) || location(full.errors[0])
    : (value) => {
        if (check(value)) return true;
        full(value);
        return location(full.errors[0]);
      };
}

/**
 * The contenders for a spec schema, each as `(value) => true | <first issue's location>`: `true` for a valid value;
 * for an invalid one, the pointer or path of its first issue, so that no tool skips the work of reporting. The
 * generated module compiles a separate check only for schemas that try alternatives (`triesAlternatives`), and
 * its `allErrors` function runs it first; ajv at run time runs the same two compilations in turn, and for those
 * schemas `ajvOnePass` is ajv with one `allErrors` function for both.
 */
function toolsFor(schema) {
  const generated = validators[schema];
  const rawFull = raw[`validate${schema}`];
  const check = checks[`check${schema}`] === undefined ? undefined : ajv.check.getSchema(schemaId(schema));
  const full = ajv.full.getSchema(schemaId(schema));
  const zod = zodSchemas[schema];
  if (!generated || !rawFull || !full || !zod) throw new Error(`no validator for ${schema}`);
  const instancePath = (error) => error.instancePath;
  return {
    generated: (value) => generated(value) || generated.errors[0].pointer,
    generatedRaw: verdictThenReport(undefined, rawFull, instancePath),
    ajv: verdictThenReport(check, full, instancePath),
    ...(check === undefined ? {} : { ajvOnePass: verdictThenReport(undefined, full, instancePath) }),
    zod: (value) => {
      const result = zod.safeParse(value);
      return result.success || result.error.issues[0].path;
    },
  };
}

/** Fails unless every tool accepts every valid payload and reports an issue for every invalid one. */
function checkAgreement(name, tools, valid, invalid) {
  for (const [tool, run] of Object.entries(tools)) {
    valid.forEach((value, i) => {
      const result = run(value);
      if (result !== true) throw new Error(`${tool} rejects valid ${name} #${i} at ${JSON.stringify(result)}`);
    });
    invalid.forEach((value, i) => {
      if (run(value) === true) throw new Error(`${tool} accepts invalid ${name} #${i}`);
    });
  }
}

const TOOL_NAMES = {
  generated: 'generated standalone validators',
  generatedRaw: 'generated, raw ajv functions without the `Validator` wrapper',
  ajv: 'ajv 8, compiled at run time (same options)',
  ajvOnePass: 'ajv 8, compiled at run time, one `allErrors` function',
  zod: 'zod 4 (hand-written schemas)',
  floor: 'only the regular-expression tests the generated validators make (replayed; a floor)',
};
/**
 * Records, in a worker (its own V8 isolate: replacing `RegExp.prototype.test` there leaves this process's
 * expressions on V8's fast path), the expressions the generated validator of `schema` tests on each payload.
 */
const RECORD_TESTS = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.bundle).then(({ validators }) => {
  const test = RegExp.prototype.test;
  let recorded = [];
  RegExp.prototype.test = function (text) {
    recorded.push([this.source, this.flags, String(text)]);
    return test.call(this, text);
  };
  parentPort.postMessage(workerData.payloads.map((payload) => {
    recorded = [];
    validators[workerData.schema](payload);
    return recorded;
  }));
});`;

/**
 * The regular-expression tests the generated validator of `schema` makes on each of `payloads`, as a contender
 * that replays just those tests (with expressions of its own); undefined when it makes none. What any validator
 * checking the same patterns and `date-time` values pays at least (zod runs expressions for the same patterns
 * and for `datetime`).
 */
async function regexFloor(schema, payloads) {
  const worker = new Worker(RECORD_TESTS, { eval: true, workerData: { bundle: validatorsBundle, schema, payloads } });
  const recorded = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if (recorded.every((tests) => tests.length === 0)) return undefined;
  const expressions = new Map();
  const tests = recorded.map((list) =>
    list.map(([source, flags, text]) => {
      const key = `/${source}/${flags}`;
      if (!expressions.has(key)) expressions.set(key, new RegExp(source, flags));
      return [expressions.get(key), text];
    }),
  );
  const n = payloads.length;
  return (i) => {
    let passed = true;
    for (const [expression, text] of tests[i % n]) passed = expression.test(text) && passed;
    return passed;
  };
}

const rows = [];
const summary = [];
for (const { name, schema, valid, invalid } of cases) {
  const tools = toolsFor(schema);
  checkAgreement(name, tools, valid, invalid);
  for (const [kind, payloads] of [
    ['valid', valid],
    ['invalid', invalid],
  ]) {
    const n = payloads.length;
    const contenders = Object.entries(tools).map(([tool, run]) => ({ name: tool, fn: (i) => run(payloads[i % n]) }));
    const floor = kind === 'valid' ? await regexFloor(schema, payloads) : undefined;
    if (floor) contenders.push({ name: 'floor', fn: floor });
    const samples = await compareOps(contenders, { rounds, ms: 100 });
    const median = (tool) => stats(samples[tool]).median;
    for (const { name: tool } of contenders) {
      const ratio = tool === 'generated' ? 1 : median('generated') / median(tool);
      rows.push(resultRow(`${name}, ${kind}: ${TOOL_NAMES[tool]}`, samples[tool], 'ops/s', ratio));
    }
    summary.push({
      case: `${name}, ${kind}`,
      generatedOps: Math.round(median('generated')),
      vsAjv: +(median('generated') / median('ajv')).toFixed(2),
      vsAjvOnePass: tools.ajvOnePass ? +(median('generated') / median('ajvOnePass')).toFixed(2) : '-',
      vsZod: +(median('generated') / median('zod')).toFixed(2),
      floorVsZod: samples.floor ? +(median('floor') / median('zod')).toFixed(1) : '-',
    });
  }
}
console.table(summary);

writeSection('validation', {
  title: 'Validation throughput',
  note: [
    'Payloads are the spec examples: the `config` of the `CreateConversationalAgentRequest` example, the',
    '`CreatePhoneConversationRequest` example, and the examples of all 15 server event types in asyncapi.yaml',
    '(validated in turn by `ServerEvent`, the envelope with any payload), each through `JSON.stringify` and',
    '`JSON.parse` as a validator gets it from the wire. Each has an invalid twin (a wrong enum',
    'value and a missing member deep in the config, a malformed phone number, a wrong member type or a malformed',
    'event id). Every tool must accept every valid payload and reject every invalid one before timing. On invalid',
    'payloads every tool also reads the location of its first issue (pointer or path), so a report built lazily',
    'is paid for. The generated validators are called through the `Validator` wrapper. Every schema is compiled',
    'with `allErrors`; schemas that try alternatives on valid values (an `anyOf` or `oneOf` without',
    'discriminator, as `ToolIdentifier` in the configuration and, through `override_config`, in',
    '`CreateConversationRequest`; not `ServerEvent`, whose `if` on the payload type, which decides',
    '`experimental` and which the zod schema checks with a `refine`, ajv evaluates for a verdict alone in either',
    'mode) also get a check that stops at the first problem, which',
    'gives the verdict: the generated `allErrors` function of such a schema runs its check first and returns at',
    'once when it passes (at every level: inside a refused value, the valid parts are not reported on), and',
    'otherwise goes on to build the issues (`{ pointer, message, keyword }`) where ajv builds its error objects.',
    'The raw rows call the `allErrors` functions of `validators.raw.gen.ts` without the wrapper. ajv compiled at',
    'run time does the same job with the same options (`createAjv`: `allErrors: false`',
    'for the verdict where there is a check, then `allErrors: true` for the report, the same formats); the "one',
    '`allErrors` function" rows, for the schemas with a check, use that function alone for both (one pass on',
    'invalid payloads, every alternative checked to its end on valid ones). zod uses `safeParse` (on failure, the path of',
    `\`issues[0]\`). Each of ${rounds} rounds measures each tool for 100 ms, round-robin; median and range over the rounds.`,
    'The floor rows, for valid payloads, replay alone the regular-expression tests the generated validator makes',
    'on them (recorded while it validates each once: the `pattern`s and the expression of the `date-time` check),',
    'which a validator checking the same values cannot skip; zod runs expressions for the same patterns and its',
    'own for `datetime`. The floor over zod bounds the ratio any such validator can reach against zod.',
    "Ratio: generated ops/s over that tool's (1.00× for generated itself; above 1 means generated is faster).",
  ].join(' '),
  goal: '≥ 10× zod 4 and ≥ 1.0× runtime ajv, on every row',
  command: `node bench/validation.mjs ${rounds}`,
  rows,
});
