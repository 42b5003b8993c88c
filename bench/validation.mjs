// Benchmark: validation throughput on the spec's own examples (valid and invalid): the generated standalone
// validators vs ajv compiled at run time from the same schemas vs hand-written zod 4 schemas.
// Usage: node bench/validation.mjs [rounds]
import { bundleForNode, compareOps, ROOT, registerTypeScript, resultRow, stats, writeSection } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 15);
await registerTypeScript();
const { loadFixtures } = await import('./fixtures.ts');
const { createAjv, schemaId } = await import('../generator/schema/ajv.ts');
const { validators } = await import(await bundleForNode('generated/src/validators.gen.ts'));
const raw = await import(await bundleForNode('generated/src/validators.raw.gen.ts'));
const { zodSchemas } = await import('./zod-schemas.ts');
const { fastFormats } = await import('ajv-formats/dist/formats.js');

const { ir, cases } = await loadFixtures(ROOT);
const ajv = createAjv(ir, { standalone: false });
/**
 * What-if (not shipped): the same ajv with the options this benchmark recommends for the generated validators,
 * `allErrors: false` (stop at the first issue) and ajv-formats' `fast` formats (regular expressions, as zod's).
 * `opts` is read at compile time and nothing is compiled yet, so setting it here changes every validator.
 */
const proposed = createAjv(ir, { standalone: false });
proposed.opts.allErrors = false;
for (const name of ['date-time', 'uri', 'email']) proposed.addFormat(name, fastFormats[name]);

/** The validators of a spec schema compared, as `(value) => boolean`. */
function toolsFor(schema) {
  const generated = validators[schema];
  const generatedRaw = raw[`validate${schema}`];
  const runtime = ajv.getSchema(schemaId(schema));
  const zod = zodSchemas[schema];
  const whatIf = proposed.getSchema(schemaId(schema));
  if (!generated || !generatedRaw || !runtime || !zod || !whatIf) throw new Error(`no validator for ${schema}`);
  return { generated, generatedRaw, ajv: runtime, zod: (value) => zod.safeParse(value).success, whatIf };
}

/** Fails unless every tool accepts every valid payload and rejects every invalid one (the tools must agree). */
function checkAgreement(name, tools, valid, invalid) {
  for (const [tool, validate] of Object.entries(tools)) {
    valid.forEach((value, i) => {
      if (!validate(value)) throw new Error(`${tool} rejects valid ${name} #${i}: ${JSON.stringify(validate.errors)}`);
    });
    invalid.forEach((value, i) => {
      if (validate(value)) throw new Error(`${tool} accepts invalid ${name} #${i}`);
    });
  }
}

const TOOL_NAMES = {
  generated: 'generated standalone validators',
  generatedRaw: 'generated, raw ajv function without the `Validator` wrapper',
  ajv: 'ajv 8, compiled at run time',
  zod: 'zod 4 (hand-written schemas)',
  whatIf: 'what-if: ajv with `allErrors: false` and fast formats',
};
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
    const contenders = Object.entries(tools).map(([tool, validate]) => ({
      name: tool,
      fn: (i) => validate(payloads[i % n]),
    }));
    const samples = await compareOps(contenders, { rounds, ms: 100 });
    const median = (tool) => stats(samples[tool]).median;
    for (const tool of Object.keys(tools)) {
      const ratio = tool === 'generated' ? 1 : median('generated') / median(tool);
      rows.push(resultRow(`${name}, ${kind}: ${TOOL_NAMES[tool]}`, samples[tool], 'ops/s', ratio));
    }
    summary.push({
      case: `${name}, ${kind}`,
      generatedOps: Math.round(median('generated')),
      vsAjv: +(median('generated') / median('ajv')).toFixed(2),
      vsZod: +(median('generated') / median('zod')).toFixed(2),
      whatIfVsZod: +(median('whatIf') / median('zod')).toFixed(2),
    });
  }
}
console.table(summary);

writeSection('validation', {
  title: 'Validation throughput',
  note: [
    'Payloads are the spec examples: the `config` of the `CreateConversationalAgentRequest` example, the',
    '`CreatePhoneConversationRequest` example, and the examples of all 15 server event types in asyncapi.yaml',
    '(validated in turn by `ServerEvent`, the envelope with any payload). Each has an invalid twin (a wrong enum',
    'value and a missing member deep in the config, a malformed phone number, a wrong member type or a malformed',
    'event id). All three tools must accept every valid payload and reject every invalid one before timing.',
    'The generated validators are called through the `Validator` wrapper (issues converted to pointers), and, to',
    'separate its cost, as the raw functions of `validators.raw.gen.ts` the wrapper calls; ajv is',
    '`createAjv(ir, { standalone: false })` (same options: `allErrors`, formats); zod uses `safeParse`.',
    `Each of ${rounds} rounds measures each tool for 100 ms, round-robin; median and range over the rounds.`,
    'The what-if rows are not shipped: ajv with the options proposed in the findings above, to show what they buy.',
    "Ratio: generated ops/s over that tool's (1.00× for generated itself; above 1 means generated is faster).",
  ].join(' '),
  goal: '≥ 10× zod 4 and ≥ 1.0× runtime ajv, on every row',
  command: `node bench/validation.mjs ${rounds}`,
  rows,
});
