/** Generated validators: every spec example passes, every invalid example fails at its pointer, issue shapes. */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as checks from '../../generated/src/validators.checks.raw.gen.js';
import * as events from '../../generated/src/validators.events.gen.js';
import * as generated from '../../generated/src/validators.gen.js';
import { type SchemaName, type Validator, validators } from '../../generated/src/validators.gen.js';
import * as raw from '../../generated/src/validators.raw.gen.js';
import {
  componentExampleNames,
  componentSchemaNames,
  type ExampleCase,
  examplesOf,
  invalidExamples,
  isObject,
  type Json,
  mediaTypes,
  messages,
  operations,
  ROOT,
  schemaName,
} from './spec.js';

/** The registry validator of a component schema or message; throws when the registry lacks it. */
function byName(name: string | undefined): Validator<unknown> {
  const validator = name === undefined ? undefined : validators[name as SchemaName];
  if (validator === undefined) throw new Error(`validators has no entry ${String(name)}`);
  return validator;
}

/** Any exported validator, request parts included (`validateListConversationsQuery`). */
function exported(name: string): Validator<unknown> | undefined {
  const value = (generated as Record<string, unknown>)[`validate${name}`];
  return typeof value === 'function' ? (value as Validator<unknown>) : undefined;
}

/** Examples whose pointer the validators are known to miss (none: keep the mechanism for regressions). */
const TAG_POINTER_DEFECT = new Set<string>();

/** The issues of the last call, formatted for an assertion message. */
function why(validator: Validator<unknown>): string {
  return JSON.stringify(validator.errors, null, 1);
}

function expectValid(validator: Validator<unknown>, value: unknown, where: string): void {
  expect(validator(value), `${where} fails ${validator.schemaName}: ${why(validator)}`).toBe(true);
  expect(validator.errors).toBeNull();
}

describe('the validators registry', () => {
  const expected = [...componentSchemaNames(), ...messages().map((m) => m.key)].sort();

  it('has one validator per component schema and per AsyncAPI message, each named after its key', () => {
    expect(Object.keys(validators).sort()).toEqual(expected);
    for (const [name, validator] of Object.entries(validators)) {
      expect(validator.schemaName).toBe(name);
      expect(exported(name)).toBe(validator);
    }
  });
});

describe('request body and response examples', () => {
  const cases = mediaTypes().flatMap(({ where, media, mediaType }) =>
    examplesOf(media, where).map((example) => ({ ...example, mediaType })),
  );

  it('are found for request bodies, responses and the event stream', () => {
    expect(cases.some((c) => c.where.includes(' request '))).toBe(true);
    expect(cases.some((c) => c.where.includes(' 200 application/json'))).toBe(true);
    expect(cases.some((c) => c.mediaType === 'text/event-stream')).toBe(true);
  });

  it.each(cases)('$where', ({ where, schema, value, mediaType }) => {
    const name = schemaName(schema);
    expect(name, `${where}: the media type schema is not a component $ref`).toBeDefined();
    expectValid(byName(name), value, where);
    if (mediaType === 'text/event-stream') {
      expect(Array.isArray(value), `${where}: an SSE example lists the messages' data`).toBe(true);
      for (const [i, event] of (value as Json[]).entries())
        expectValid(generated.validateServerEvent, event, `${where}/${i}`);
    }
  });
});

describe('components/examples', () => {
  const uses = mediaTypes()
    .flatMap(({ where, media }) => examplesOf(media, where))
    .filter((c) => c.component);

  it.each(componentExampleNames())('%s is used by a media type and passes the validator of each use', (name) => {
    const used: ExampleCase[] = uses.filter((c) => c.component === name);
    expect(used.length, `components/examples/${name} is never referenced`).toBeGreaterThan(0);
    for (const c of used) expectValid(byName(schemaName(c.schema)), c.value, c.where);
  });
});

/** The name suffix of the request-part validator of each parameter location (`ListConversationsQuery`). */
const PART = { path: 'Params', query: 'Query', header: 'Headers' } as const;

describe('parameter examples', () => {
  const cases = operations().flatMap((op) =>
    op.parameters.flatMap((parameter) =>
      examplesOf(parameter, `${op.operationId} ${String(parameter.in)} ${String(parameter.name)}`).map((example) => ({
        ...example,
        op,
        parameter,
      })),
    ),
  );

  it('are found for path, query and header parameters', () => {
    expect(new Set(cases.map((c) => c.parameter.in))).toEqual(new Set(['path', 'query', 'header']));
  });

  it.each(cases)('$where', ({ where, schema, value, op, parameter }) => {
    const checked: string[] = [];
    const name = schemaName(schema);
    if (name !== undefined) {
      expectValid(byName(name), value, where);
      checked.push(name);
    }
    const location = String(parameter.in) as keyof typeof PART;
    const key = location === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name);
    // Service-Version is checked by the runtime itself (with its own error codes), not by the header validator.
    if (!op.webhook && key !== 'service-version') {
      const partName = `${op.operationId[0]?.toUpperCase()}${op.operationId.slice(1)}${PART[location]}`;
      const part = exported(partName);
      expect(part, `no validator ${partName}`).toBeDefined();
      expectValid(part as Validator<unknown>, { ...requiredSiblings(op.parameters, location), [key]: value }, where);
      checked.push(partName);
    }
    // Webhook requests are received by user code: only their `$ref` schemas have generated validators.
    if (!op.webhook) expect(checked.length, `${where} reached no generated validator`).toBeGreaterThan(0);
  });
});

/** Example values for the other required parameters of the same location, so a part validator can be called. */
function requiredSiblings(parameters: readonly Json[], location: string): Record<string, Json | undefined> {
  const out: Record<string, Json | undefined> = {};
  for (const p of parameters) {
    if (!isObject(p) || p.in !== location || p.required !== true || String(p.name).toLowerCase() === 'service-version')
      continue;
    const key = location === 'header' ? String(p.name).toLowerCase() : String(p.name);
    out[key] = examplesOf(p, key)[0]?.value;
  }
  return out;
}

describe('x-casi-invalid-examples', () => {
  const cases = invalidExamples();

  it('are found', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const where of TAG_POINTER_DEFECT) expect(cases.map((c) => c.where)).toContain(where);
  });

  for (const { where, schema, reason, pointer, value } of cases) {
    const validator = byName(schemaName(schema));

    it(`${where} is refused`, () => {
      expect(validator(value), `${where} is accepted, but: ${reason}`).toBe(false);
    });

    const known = TAG_POINTER_DEFECT.has(where);
    (known ? it.fails : it)(`${where} names '${pointer}'${known ? ' (known defect)' : ''}`, () => {
      validator(value);
      const pointers = (validator.errors ?? []).map((issue) => issue.pointer);
      const hit = pointers.some((p) => pointer === '' || p === pointer || p.startsWith(`${pointer}/`));
      expect(hit, `${where}: no issue at or below '${pointer}': ${why(validator)}`).toBe(true);
    });
  }
});

describe('AsyncAPI message examples', () => {
  const all = messages();
  const cases = all.flatMap((message) =>
    message.examples.map((example) => ({
      ...message,
      label: `${message.key} ${example.name}`,
      value: example.payload,
    })),
  );

  it('are found for every message', () => {
    for (const message of all) expect(message.examples.length, `${message.key} has no example`).toBeGreaterThan(0);
  });

  it.each(cases)('$label passes its message, envelope and payload validators, and no other message', (c) => {
    expectValid(byName(c.key), c.value, c.label);
    const envelope = c.envelope === 'ServerEvent' ? generated.validateServerEvent : generated.validateClientEvent;
    expectValid(envelope, c.value, c.label);
    expectValid(byName(c.payloadSchema), isObject(c.value) ? c.value.payload : undefined, `${c.label} payload`);
    for (const other of all.filter((m) => m.key !== c.key && m.envelope === c.envelope)) {
      expect(byName(other.key)(c.value), `${c.label} passes ${other.key}`).toBe(false);
    }
  });
});

/** The members every server event carries, valid. */
const envelope = {
  id: 'ev_1',
  created_at: '2025-07-02T14:00:05.000Z',
  agent_id: 'ca_7Qk2Lm9Xa@v1',
  livemode: true,
  conversation_id: 'conv_9Xr4Tb2Kp',
  experimental: false,
};

describe('validation issues', () => {
  const delta = { type: 'agent.message.delta', text_delta: 'Hi', generation_id: 'gen_1' };

  /** The issues of one failed call, each checked to be exactly `{ pointer, message, keyword }` of strings. */
  function issuesOf(validator: Validator<unknown>, value: unknown) {
    expect(validator(value), `${validator.schemaName} accepts ${JSON.stringify(value)}`).toBe(false);
    const issues = validator.errors ?? [];
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(Object.keys(issue).sort()).toEqual(['keyword', 'message', 'pointer']);
      expect(issue.pointer === '' || issue.pointer.startsWith('/'), `pointer ${issue.pointer}`).toBe(true);
      expect(typeof issue.message).toBe('string');
      expect(issue.message.length).toBeGreaterThan(0);
      expect(typeof issue.keyword).toBe('string');
    }
    return issues;
  }

  it('are null after a valid value, also after an invalid one', () => {
    const { validateServerEvent } = generated;
    expect(validateServerEvent({ ...envelope, payload: { type: 'conversation.started', bogus: 1 } })).toBe(false);
    expect(validateServerEvent.errors).not.toBeNull();
    expect(validateServerEvent({ ...envelope, payload: delta })).toBe(true);
    expect(validateServerEvent.errors).toBeNull();
  });

  it('point at a missing required member', () => {
    const { generation_id: _, ...withoutGeneration } = delta;
    const issues = issuesOf(generated.validateServerEvent, { ...envelope, payload: withoutGeneration });
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/payload/generation_id', keyword: 'required' }));
  });

  it('point at an unknown member', () => {
    const issues = issuesOf(generated.validateServerEvent, { ...envelope, extra: 1, payload: delta });
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/extra', keyword: 'additionalProperties' }));
  });

  it('point at a value of the wrong type, pattern or format, listing every problem', () => {
    const issues = issuesOf(generated.validateServerEvent, {
      ...envelope,
      livemode: 'yes',
      agent_id: 'ca_7Qk2Lm9Xa',
      created_at: 'yesterday',
      payload: delta,
    });
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/livemode', keyword: 'type' }));
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/agent_id', keyword: 'pattern' }));
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/created_at', keyword: 'format' }));
  });

  it('escape `~` and `/` in pointers (RFC 6901)', () => {
    const issues = issuesOf(generated.validateInjectContextRequest, { data: { 'a/b~c': 3 } });
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/data/a~1b~0c', keyword: 'type' }));
  });

  it('name the payload of an unknown or missing event type', () => {
    for (const payload of [{ type: 'agent.nope' }, { text_delta: 'Hi' }]) {
      const issues = issuesOf(generated.validateServerEvent, { ...envelope, payload });
      expect(issues.some((issue) => issue.pointer.startsWith('/payload'))).toBe(true);
    }
  });

  it('point at the event type tag when it is unknown or missing', () => {
    for (const payload of [{ type: 'agent.nope' }, { text_delta: 'Hi' }]) {
      const issues = issuesOf(generated.validateServerEvent, { ...envelope, payload });
      expect(issues.map((issue) => issue.pointer)).toContain('/payload/type');
    }
  });

  it('accept either experimental flag on any payload type (the experimental list documents, it does not validate)', () => {
    const customer = { type: 'agent.customer.loaded', name: 'Sam' };
    for (const experimental of [true, false]) {
      expect(generated.validateServerEvent({ ...envelope, experimental, payload: customer })).toBe(true);
      expect(generated.validateServerEvent({ ...envelope, experimental, payload: delta })).toBe(true);
    }
    const issues = issuesOf(generated.validateServerEvent, { ...envelope, experimental: 'yes', payload: delta });
    expect(issues).toContainEqual(expect.objectContaining({ pointer: '/experimental', keyword: 'type' }));
  });

  it('make assertValid throw a ValidationError naming the schema and each pointer', () => {
    const value = { ...envelope, livemode: 'yes', payload: delta };
    expect(() => generated.assertValid(generated.validateServerEvent, value)).toThrow(generated.ValidationError);
    expect(() => generated.assertValid(generated.validateServerEvent, value)).toThrow(/ServerEvent.*\/livemode/);
  });
});

describe('the issues of a refused value', () => {
  /** `casi validate`'s validator of `name`: ajv compiled at run time with `allErrors`, issues converted alike. */
  let runtimeIssues: (name: string, value: unknown) => generated.ValidationIssue[];

  beforeAll(async () => {
    const { loadSpecs } = await import('../../generator/load/index.js');
    const { buildIr } = await import('../../generator/ir/build.js');
    const { createAjv, schemaId } = await import('../../generator/schema/ajv.js');
    const specs = await loadSpecs(resolve(ROOT, 'spec/openapi.yaml'), resolve(ROOT, 'spec/asyncapi.yaml'));
    const ajv = createAjv(buildIr(specs), { standalone: false });
    runtimeIssues = (name, value) => {
      const validate = ajv.getSchema(schemaId(name));
      if (validate === undefined) throw new Error(`no schema ${name}`);
      expect(validate(value)).toBe(false);
      return generated.issuesFromAjv(validate.errors, value);
    };
  });

  const manyProblems = {
    ...envelope,
    id: 'event-1',
    created_at: '2024-02-30T10:00:00Z',
    livemode: 'yes',
    extra: 1,
    payload: { type: 'agent.message.delta', text_delta: 3 },
  };

  it('are every issue ajv lists with allErrors, in its order, for every invalid example and message', () => {
    const cases = [
      ...invalidExamples().map((c) => ({ name: schemaName(c.schema) as string, value: c.value as unknown })),
      { name: 'ServerEvent', value: manyProblems },
      { name: 'AgentMessageDeltaEvent', value: manyProblems },
      { name: 'ClientEvent', value: { payload: { type: 'user.message.send', text: '', extra: true } } },
    ];
    for (const { name, value } of cases) {
      const validator = byName(name);
      expect(validator(value), name).toBe(false);
      expect(validator.errors, name).toEqual(runtimeIssues(name, value));
    }
  });

  it("are runtime ajv's, converted, on mutations of every example (members dropped, retyped, added)", async () => {
    const { loadSpecs } = await import('../../generator/load/index.js');
    const { buildIr } = await import('../../generator/ir/build.js');
    const { createAjv, schemaId } = await import('../../generator/schema/ajv.js');
    const specs = await loadSpecs(resolve(ROOT, 'spec/openapi.yaml'), resolve(ROOT, 'spec/asyncapi.yaml'));
    const ajv = createAjv(buildIr(specs), { standalone: false });
    const seeds = [
      ...[...mediaTypes().flatMap(({ where, media }) => examplesOf(media, where)), ...invalidExamples()].map((c) => ({
        name: schemaName(c.schema),
        value: c.value as unknown,
      })),
      ...messages().flatMap((m) => m.examples.map((e) => ({ name: m.key, value: e.payload as unknown }))),
      ...messages().flatMap((m) => m.examples.map((e) => ({ name: m.envelope, value: e.payload as unknown }))),
    ].filter((seed): seed is { name: string; value: unknown } => seed.name !== undefined);
    /** Every value one edit away from `value`: each member dropped, set to another type, and a member added. */
    const mutations = (value: unknown): unknown[] => {
      if (typeof value !== 'object' || value === null) return [];
      const out: unknown[] = [];
      const entries = Object.entries(value);
      const rebuild = (edit: (copy: Record<string, unknown>) => void): unknown => {
        const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...value };
        edit(copy);
        return copy;
      };
      if (!Array.isArray(value)) out.push(rebuild((copy) => Object.assign(copy, { 'extra/~member': 1 })));
      for (const [key, member] of entries) {
        if (!Array.isArray(value)) out.push(rebuild((copy) => delete copy[key]));
        for (const other of [42, 'text', null, true, [], {}])
          if (typeof other !== typeof member) out.push(rebuild((copy) => Object.assign(copy, { [key]: other })));
        for (const inner of mutations(member)) out.push(rebuild((copy) => Object.assign(copy, { [key]: inner })));
      }
      return out;
    };
    let refused = 0;
    for (const { name, value } of seeds) {
      const validator = exported(name);
      const runtime = ajv.getSchema(schemaId(name));
      if (validator === undefined || runtime === undefined) throw new Error(`no validator ${name}`);
      for (const mutated of [value, ...mutations(value)]) {
        const verdict = runtime(mutated);
        expect(validator(mutated), `${name}: ${JSON.stringify(mutated)}`).toBe(verdict);
        if (verdict) continue;
        refused++;
        expect(validator.errors, `${name}: ${JSON.stringify(mutated)}`).toEqual(
          generated.issuesFromAjv(runtime.errors, mutated),
        );
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it('are the same from the client module, which has no separate check', () => {
    for (const value of [manyProblems, { ...envelope, payload: { type: 'agent.nope' } }]) {
      expect(events.validateServerEvent(value)).toBe(false);
      expect(generated.validateServerEvent(value)).toBe(false);
      expect(events.validateServerEvent.errors).toEqual(generated.validateServerEvent.errors);
    }
  });

  it('describe the value of the last call, read after other validators ran', () => {
    for (const module of [generated, events]) {
      expect(module.validateServerEvent(manyProblems)).toBe(false);
      // Validators whose code includes the ServerEvent code run before the issues are read.
      expect(generated.validateAgentMessageDeltaEvent({ ...envelope, payload: { type: 'agent.message.delta' } })).toBe(
        false,
      );
      expect(module.validateClientEvent({ payload: { type: 'user.message.send', text: 'Hi' } })).toBe(true);
      const issues = module.validateServerEvent.errors;
      expect(issues).toEqual(runtimeIssues('ServerEvent', manyProblems));
      expect(module.validateServerEvent.errors).toBe(issues);
    }
  });

  it('come from a check that stops at the first problem only where a schema tries alternatives', () => {
    const functions = checks as Record<string, unknown>;
    expect(typeof functions.checkConversationalAgentConfig).toBe('function');
    expect(typeof functions.checkToolIdentifier).toBe('function');
    // ServerEvent's payload union is resolved by its discriminator, so nothing there tries alternatives: a second
    // function would be the same work in more code.
    expect(functions.checkServerEvent).toBeUndefined();
    expect(functions.checkClientEvent).toBeUndefined();
  });

  it('give the same verdict from the check as from the allErrors function, on every example', () => {
    const functions = { ...raw, ...checks } as Record<string, (value: unknown) => boolean>;
    const values = [
      ...mediaTypes().flatMap(({ where, media }) => examplesOf(media, where).map((c) => c.value)),
      ...invalidExamples().map((c) => c.value),
      ...messages().flatMap((m) => m.examples.map((e) => e.payload)),
      manyProblems,
    ];
    let compared = 0;
    for (const name of Object.keys(validators)) {
      const check = functions[`check${name}`];
      const full = functions[`validate${name}`];
      if (check === undefined || full === undefined) continue;
      for (const value of values) {
        expect(check(value), `${name}: ${JSON.stringify(value)}`).toBe(full(value));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('are listed when a value is refused, so that changing it afterwards changes nothing', () => {
    const { validateConversationalAgentConfig, validateServerEvent } = generated;
    const config = { language: { default_language: 'French' } };
    expect(validateConversationalAgentConfig(config)).toBe(false);
    const expected = runtimeIssues('ConversationalAgentConfig', config);
    config.language.default_language = 'en-US';
    expect(validateConversationalAgentConfig.errors).toEqual(expected);
    const event = structuredClone(manyProblems);
    expect(validateServerEvent(event)).toBe(false);
    event.id = 'ev_2';
    expect(validateServerEvent.errors).toEqual(runtimeIssues('ServerEvent', manyProblems));
  });

  it('are null after a valid call and can be reset', () => {
    const { validateServerEvent } = generated;
    expect(validateServerEvent(manyProblems)).toBe(false);
    validateServerEvent.errors = null;
    expect(validateServerEvent.errors).toBeNull();
  });
});
