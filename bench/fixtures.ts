/** Benchmark payloads taken from the spec's own examples, each with an invalid twin, plus the IR they come from. */
import { resolve } from 'node:path';
import { buildIr } from '../generator/ir/build.js';
import type { Ir } from '../generator/ir/model.js';
import { loadSpecs, valueAt } from '../generator/load/index.js';

/** A named payload checked by the validator of `schema`; `invalid` breaks it deep inside (one or two issues). */
export interface BenchCase {
  readonly name: string;
  readonly schema: 'ConversationalAgentConfig' | 'CreateConversationRequest' | 'ServerEvent';
  readonly valid: readonly unknown[];
  readonly invalid: readonly unknown[];
}

/** What the benchmarks need: the IR (for ajv), the three validation cases, and the `Conversation` example. */
export interface BenchFixtures {
  readonly ir: Ir;
  readonly cases: readonly BenchCase[];
  /** The `Conversation` example: the body `GET /conversations/{conversation_id}` answers in the HTTP benchmarks. */
  readonly conversation: Readonly<Record<string, unknown>>;
}

type Obj = Record<string, unknown>;

/** A deep copy with `edit` applied to it. */
function edited<T>(value: T, edit: (copy: Obj) => void): T {
  const copy = structuredClone(value) as Obj;
  edit(copy);
  return copy as T;
}

/** The `value` of `components/examples/<name>` in the OpenAPI document. */
function example(openapi: unknown, name: string): Obj {
  const value = valueAt(openapi, `/components/examples/${name}/value`);
  if (!value || typeof value !== 'object') throw new Error(`spec/openapi.yaml has no components/examples/${name}`);
  return value as Obj;
}

/** An invalid twin of a server event: a wrong member type in the payload, or a malformed envelope id. */
function brokenEvent(event: Obj, index: number): Obj {
  return edited(event, (copy) => {
    const payload = copy.payload as Obj;
    const member = Object.keys(payload).find((key) => key !== 'type');
    if (member !== undefined && index % 2 === 0) payload[member] = 42;
    else copy.id = `event-${index}`;
  });
}

/**
 * `value` as it arrives on the wire: through `JSON.stringify` and `JSON.parse`, so that its strings are the flat
 * (and, for short ones, internalised) strings V8 makes when parsing JSON, not the slices of the YAML source.
 */
function fromWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Loads both specs from the repository root and builds the fixtures. */
export async function loadFixtures(root: string): Promise<BenchFixtures> {
  const specs = await loadSpecs(resolve(root, 'spec/openapi.yaml'), resolve(root, 'spec/asyncapi.yaml'));
  const ir = buildIr(specs);
  const openapi = specs.openapi.value;

  const config = example(openapi, 'CreateConversationalAgentRequest').config as Obj;
  const badConfig = edited(config, (copy) => {
    ((copy.runtime as Obj).variables as Obj[]).push({ name: 'order_id' });
    (copy.language as Obj).default_language = 'French';
  });
  const create = example(openapi, 'CreatePhoneConversationRequest');
  const badCreate = edited(create, (copy) => {
    (copy.channel as Obj).callee_no = '555-0123';
  });
  const events = ir.events.filter((e) => e.direction === 'server').flatMap((e) => e.examples as Obj[]);
  const types = new Set(events.map((e) => (e.payload as Obj).type));
  if (types.size !== 15) throw new Error(`expected examples of 15 server event types, found ${types.size}`);

  return {
    ir,
    conversation: example(openapi, 'Conversation'),
    cases: [
      {
        name: 'ConversationalAgentConfig',
        schema: 'ConversationalAgentConfig',
        valid: fromWire([config]),
        invalid: fromWire([badConfig]),
      },
      {
        name: 'CreateConversationRequest',
        schema: 'CreateConversationRequest',
        valid: fromWire([create]),
        invalid: fromWire([badCreate]),
      },
      {
        name: `ServerEvent (mixed stream of ${events.length})`,
        schema: 'ServerEvent',
        valid: fromWire(events),
        invalid: fromWire(events.map(brokenEvent)),
      },
    ],
  };
}
