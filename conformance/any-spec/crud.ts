/**
 * `crud_sequence`: create → read → update → list → delete on each resource of the REST shape (`crud-shape.ts`).
 * What is created reads back with the fields sent, an update is visible on read, the list holds the resource, and
 * after DELETE the read is 404 or 410. A stateless mock cannot pass these, so they run only once the server is seen
 * to keep state: two different resources created and each read back as it was sent.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Ir, IrOperation } from '../../generator/ir/model.js';
import { curlCommand } from '../curl.js';
import type { Report } from '../report.js';
import { describeRequest } from '../requests.js';
import { describeAnswer, type WireRequest, type WireResponse } from '../wire.js';
import { checkAnswer, declaredResponse } from './checks.js';
import {
  type CrudResource,
  createdId,
  crudResources,
  differentField,
  heldFields,
  listHolds,
  listItems,
  sentFields,
} from './crud-shape.js';
import type { LinkRunner } from './links.js';
import type { AnyRequest } from './requests.js';
import type { SpecSchemas } from './schemas.js';

/** How the sequences reach the server: as links do, and a generated request of an operation. */
export interface CrudRunner extends LinkRunner {
  readonly generated: (op: IrOperation, seed: number) => AnyRequest;
}

/** One request of a sequence and its answer. */
interface Step {
  readonly op: IrOperation;
  readonly wire: WireRequest;
  readonly response: WireResponse;
}

/** A resource created and read back: its name, the fields sent and what was wrong with the read, if anything. */
interface Created {
  readonly request: AnyRequest;
  readonly id: unknown;
  readonly steps: Step[];
  readonly fields: [string, unknown][];
  readonly problem: string | undefined;
}

const success = (response: WireResponse) => response.status >= 200 && response.status < 300;

/** Runs the sequence on every resource of the REST shape; notes say what was left out and why. */
export async function runCrudSequences(
  ir: Ir,
  schemas: SpecSchemas,
  ops: readonly IrOperation[],
  runner: CrudRunner,
  report: Report,
  seed: number,
): Promise<string[]> {
  const notes: string[] = [];
  const exchange = async (op: IrOperation, request: AnyRequest): Promise<Step> => ({
    op,
    ...(await runner.exchange(op, request)),
  });
  /** A request of an item operation naming the resource `create` made as `id`. */
  const itemRequest = (resource: CrudResource, op: IrOperation, made: AnyRequest, id: unknown): AnyRequest => {
    const base = runner.example(op) ?? runner.generated(op, seed);
    const path = { ...base.path };
    for (const p of op.parameters.path) if (p.name in made.path) path[p.name] = made.path[p.name];
    return { ...base, path: { ...path, [resource.param]: id } };
  };
  /** Creates with `request` and reads the resource back; a string says why the sequence cannot go on. */
  const createAndRead = async (resource: CrudResource, request: AnyRequest): Promise<Created | string> => {
    const made = await exchange(resource.create, request);
    const id = success(made.response) ? createdId(made.response, resource.param) : undefined;
    if (id === undefined)
      return `${resource.create.id}: ${success(made.response) ? 'no id in the answer' : `the create answered ${made.response.status}`}, so its crud sequence is not run`;
    const read = await exchange(resource.read, itemRequest(resource, resource.read, request, id));
    const fields = sentFields(resource.create, request.body, schemas, answerSchema(resource.read, read.response));
    const problem = !success(read.response)
      ? `what was created does not read back (${read.response.status})`
      : differentField(fields, read.response.json);
    return { request, id, steps: [made, read], fields, problem };
  };
  const started: { resource: CrudResource; a: Created; b: Created | string }[] = [];
  for (const resource of crudResources(ir, ops)) {
    const first = runner.example(resource.create) ?? runner.generated(resource.create, seed);
    const a = await createAndRead(resource, first);
    if (typeof a === 'string') notes.push(a);
    else started.push({ resource, a, b: await createAndRead(resource, runner.generated(resource.create, seed + 1)) });
  }
  if (started.length === 0) return notes;
  if (!started.some(({ a, b }) => typeof b !== 'string' && keepsState(a, b))) {
    const { resource, a, b } = started[0] as (typeof started)[number];
    const why = a.problem ?? (typeof b === 'string' ? b : b.problem) ?? 'the reads do not show the fields sent';
    notes.push(
      `crud sequences left out: no resource created twice read back both times as sent, so the server keeps no state (a mock?); ${resource.create.id} then ${resource.read.id}: ${why}`,
    );
    return notes;
  }
  for (const { resource, a, b } of started) {
    const steps = [...a.steps, ...(typeof b === 'string' ? [] : b.steps)];
    const judge = (op: IrOperation, problem: string | undefined, sequence: readonly Step[]) => {
      const last = sequence.at(-1) as Step;
      const shown = `${describeRequest(last.wire)} → ${describeAnswer(last.response)}`;
      const replay = sequence.map((step) => curlCommand(runner.baseUrl, step.wire)).join(' && ');
      report.record('crud_sequence', op.id, problem && `${problem}: ${shown}`, problem && replay);
    };
    judge(resource.read, a.problem, a.steps);
    let fields = a.fields;
    const item = (op: IrOperation) => itemRequest(resource, op, a.request, a.id);
    /** A request of `update` whose body is not the create's (an update to the same values would show nothing). */
    const changed = (update: IrOperation): AnyRequest => {
      const request = item(update);
      if (!isDeepStrictEqual(request.body, a.request.body)) return request;
      return { ...request, body: runner.generated(update, seed + 2).body };
    };
    if (resource.update !== undefined) {
      const request = withName(changed(resource.update), a.steps[0]?.response.json, [resource.param, 'id']);
      const updated = await exchange(resource.update, request);
      steps.push(updated);
      if (success(updated.response)) {
        const read = await exchange(resource.read, item(resource.read));
        steps.push(read);
        fields = sentFields(resource.update, request.body, schemas, answerSchema(resource.read, read.response));
        const different = success(read.response)
          ? differentField(fields, read.response.json)
          : `the updated resource does not read back (${read.response.status})`;
        judge(resource.update, different && `the update is not visible on read: ${different}`, [
          a.steps[0] as Step,
          updated,
          read,
        ]);
      } else notes.push(`${resource.update.id}: the update answered ${updated.response.status}, so it is not judged`);
    }
    if (resource.list !== undefined) {
      const base = runner.example(resource.list) ?? runner.generated(resource.list, seed);
      const listed = await exchange(resource.list, { ...base, path: { ...base.path, ...a.request.path } });
      steps.push(listed);
      const items = success(listed.response) ? listItems(listed.response.json) : undefined;
      if (items !== undefined) {
        const holds = listHolds(items, a.id, resource.param, fields);
        const problem = holds ? undefined : `the list does not hold what was created (${resource.param} ${a.id})`;
        judge(resource.list, problem, [a.steps[0] as Step, listed]);
      }
    }
    if (resource.remove !== undefined) {
      const removed = await exchange(resource.remove, item(resource.remove));
      steps.push(removed);
      if (success(removed.response)) {
        const read = await exchange(resource.read, item(resource.read));
        steps.push(read);
        const gone = read.response.status === 404 || read.response.status === 410;
        const problem = gone ? undefined : `after DELETE the read answers ${read.response.status}, not 404 or 410`;
        judge(resource.remove, problem, [a.steps[0] as Step, removed, read]);
      }
      if (typeof b !== 'string')
        await exchange(resource.remove, itemRequest(resource, resource.remove, b.request, b.id));
    }
    for (const step of steps)
      for (const verdict of checkAnswer(schemas, step.op, step.response, false)) {
        const shown = `(crud sequence) ${describeRequest(step.wire)} → ${describeAnswer(step.response)}`;
        const replay = verdict.problem && curlCommand(runner.baseUrl, step.wire);
        report.record(verdict.check, step.op.id, verdict.problem && `${verdict.problem}: ${shown}`, replay);
      }
  }
  return notes;
}

/**
 * Whether two creates show a server that keeps state: both read back as sent, and their reads differ in a field
 * that was sent differently (a mock answering one sample cannot match both).
 */
function keepsState(a: Created, b: Created): boolean {
  if (a.problem !== undefined || b.problem !== undefined) return false;
  const readA = a.steps[1]?.response.json;
  const readB = b.steps[1]?.response.json;
  if (heldFields(a.fields, readA) === 0 || heldFields(b.fields, readB) === 0) return false;
  const sentB = new Map(b.fields);
  return a.fields.some(
    ([name, value]) =>
      sentB.has(name) &&
      !isDeepStrictEqual(value, sentB.get(name)) &&
      heldFields([[name, value]], readA) > 0 &&
      heldFields([[name, value]], readB) > 0,
  );
}

/** The schema of the declared response that answers `response` (for the members it declares). */
function answerSchema(op: IrOperation, response: WireResponse) {
  return declaredResponse(op, response.status)?.schema;
}

/** `request` with the body's members among `names` set to the created resource's values (an update keeps its name). */
function withName(request: AnyRequest, created: unknown, names: readonly string[]): AnyRequest {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return request;
  if (created === null || typeof created !== 'object') return request;
  const values = created as Record<string, unknown>;
  const named = Object.fromEntries(names.filter((n) => n in body && n in values).map((n) => [n, values[n]]));
  return { ...request, body: { ...body, ...named } };
}
