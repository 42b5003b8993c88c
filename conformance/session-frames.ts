/**
 * The WebSocket session's client side, from the IR: client events generated from their envelope schema are
 * accepted (`client_event_acceptance`: no `server.error` names them, except `conversation_ended` once the terminal
 * event came), and mutants of a valid one, a non-JSON frame and a binary frame are each answered by a `server.error`
 * naming the frame's `id` while the socket stays open (`client_event_rejection`). Every event received goes through
 * the response and stream checks of the session operation.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import type { IrOperation } from '../generator/ir/model.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import type { ContractContext } from './context.js';
import { checkedCall, clientFor } from './fixtures.js';
import { mutate } from './mutations.js';
import { checkResponse } from './response-checks.js';
import { ANSWER_TIMEOUT_MS, delay, expandPath, NO_EVENTS, networkErrorText, parseJson, urlOf } from './wire.js';

/** Client events sent before the answers are read. */
const BATCH = 25;
/** Silence after which a batch's answers are taken as complete. */
const QUIET_MS = 60;
/** Longest wait for one batch's answers. */
const BATCH_DEADLINE_MS = 5000;

type Received = { id?: unknown; payload?: { type?: unknown; error?: unknown; source_event_id?: unknown } };

/** A raw session on a fresh chat conversation: frames out, parsed events in. */
class Probe {
  readonly received: Received[] = [];
  /** Frames that were not JSON (the response checks fail them). */
  readonly malformed: string[] = [];
  closed = false;
  private constructor(
    readonly conversationId: string,
    private readonly socket: WebSocket,
  ) {
    socket.on('message', (data) => {
      const value = parseJson(data.toString());
      if (value === undefined) this.malformed.push(data.toString());
      else this.received.push(value as Received);
    });
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static async open(ctx: ContractContext, op: IrOperation): Promise<Probe> {
    const client = clientFor(ctx.target.baseUrl, ctx.target.keys.write);
    const made = await checkedCall(ctx.spec, client, 'createConversation', () =>
      client.conversations.create({ agent_id: ctx.fixtures.agent.id, channel: { type: 'chat_realtime' } }),
    );
    const name = op.parameters.path[0]?.name ?? 'conversation_id';
    const url = urlOf(ctx.target.baseUrl, { method: 'GET', path: expandPath(op.path, { [name]: made.id }) });
    url.protocol = 'ws:';
    const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${ctx.target.keys.write}` } });
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        socket.terminate();
        reject(new Error(`${op.id} (GET ${url.pathname}): ${why}`));
      };
      const timer = setTimeout(() => fail(`no handshake answer within ${ANSWER_TIMEOUT_MS} ms`), ANSWER_TIMEOUT_MS);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => fail(networkErrorText(error)));
    });
    return new Probe(made.id, socket);
  }

  send(frame: string | Buffer): void {
    this.socket.send(frame, { binary: typeof frame !== 'string' });
  }

  /** Waits until `ready` holds, then until nothing arrived for QUIET_MS (both bounded by one deadline). */
  async settle(ready: () => boolean = () => true): Promise<void> {
    const deadline = Date.now() + BATCH_DEADLINE_MS;
    while (!ready() && !this.closed && Date.now() < deadline) await delay(QUIET_MS);
    for (let seen = -1; seen !== this.received.length && Date.now() < deadline; ) {
      seen = this.received.length;
      await delay(QUIET_MS);
    }
  }

  errorsFor(id: string | undefined): string[] {
    return this.received
      .filter((e) => e.payload?.type === 'server.error' && e.payload.source_event_id === id)
      .map((e) => String(e.payload?.error));
  }

  ended(ctx: ContractContext): boolean {
    const terminal = new Set(ctx.spec.ir.events.filter((e) => e.terminal).map((e) => e.type));
    return this.received.some((e) => terminal.has(String(e.payload?.type)));
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Runs both checks on every WebSocket operation of the IR. */
export async function checkSessionFrames(ctx: ContractContext): Promise<void> {
  for (const op of ctx.spec.ir.operations.filter((o) => o.transport === 'websocket')) {
    await acceptance(ctx, op);
    await rejection(ctx, op);
  }
}

/** The envelope schema of client events (`ClientEvent`), from the AsyncAPI messages. */
function clientEnvelope(ctx: ContractContext): string {
  const name = ctx.spec.ir.events.find((e) => e.direction === 'client')?.envelopeSchema;
  if (!name) throw new Error('the spec has no client events');
  return name;
}

async function acceptance(ctx: ContractContext, op: IrOperation): Promise<void> {
  const arbitrary = arbitraryFromSchema(
    { $ref: `#/components/schemas/${clientEnvelope(ctx)}` },
    {
      resolve: (name) => ctx.spec.schema(name),
    },
  );
  const samples = fc.sample(arbitrary, { numRuns: ctx.runs, seed: ctx.seed }) as Record<string, unknown>[];
  for (let start = 0; start < samples.length; start += BATCH) {
    const probe = await Probe.open(ctx, op);
    const ids = samples.slice(start, start + BATCH).map((sample, i) => {
      const id = `accept_${start + i}`;
      probe.send(JSON.stringify({ ...sample, id }));
      return id;
    });
    await probe.settle();
    for (const id of ids) {
      const errors = probe.errorsFor(id).filter((e) => !(probe.ended(ctx) && e.startsWith('conversation_ended')));
      const frame = JSON.stringify(samples[start + ids.indexOf(id)]).slice(0, 200);
      ctx.report.record(
        'client_event_acceptance',
        op.id,
        errors.length ? `${frame} → server.error ${errors[0]}` : undefined,
      );
    }
    finish(ctx, op, probe);
  }
}

async function rejection(ctx: ContractContext, op: IrOperation): Promise<void> {
  const envelope = ctx.spec.schema(clientEnvelope(ctx));
  const valid = { id: 'base', payload: { type: 'user.message.send', text: 'hello' } };
  // A mutant whose `id` survives can be told apart by it; those that break `id` itself are sent one per session.
  const mutants = mutate(envelope, valid, ctx.spec.walkOptions);
  const probe = await Probe.open(ctx, op);
  const cases: { id: string | undefined; frame: string | Buffer; label: string; code: string }[] = [];
  mutants.forEach((m, i) => {
    const value = m.value as Record<string, unknown>;
    const keepsId = !m.pointer.startsWith('/id');
    const id = keepsId ? `reject_${i}` : undefined;
    const frame = JSON.stringify(keepsId ? { ...value, id } : value);
    cases.push({ id, frame, label: `${m.kind} ${m.pointer}`, code: 'invalid_request' });
  });
  cases.push({ id: undefined, frame: '{"payload": ', label: 'not JSON', code: 'malformed_json' });
  cases.push({ id: undefined, frame: Buffer.from([1, 2, 3]), label: 'binary frame', code: '' });
  for (const c of cases) probe.send(c.frame);
  probe.send(JSON.stringify({ ...valid, id: 'after' }));
  // The valid frame sent last is answered after every rejected one: a slow server is waited for, up to the deadline.
  await probe.settle(() => probe.received.some((e) => e.payload?.type === 'user.message.received'));
  const anonymous = probe.errorsFor(undefined);
  let anonymousUsed = 0;
  for (const c of cases) {
    const errors = c.id === undefined ? anonymous.slice(anonymousUsed, ++anonymousUsed) : probe.errorsFor(c.id);
    const ok = errors.length === 1 && (errors[0] ?? '').startsWith(c.code);
    ctx.report.record(
      'client_event_rejection',
      op.id,
      ok ? undefined : `${c.label}: ${String(c.frame).slice(0, 200)} → ${JSON.stringify(errors)}`,
    );
  }
  const stillOpen = !probe.closed && probe.errorsFor('after').length === 0 && !probe.ended(ctx);
  const answered = probe.received.some((e) => e.payload?.type === 'user.message.received');
  ctx.report.record(
    'client_event_rejection',
    op.id,
    stillOpen && answered ? undefined : 'the session did not go on after the rejected frames',
  );
  finish(ctx, op, probe);
}

/** Runs the response checks on everything the session received, then closes it. */
function finish(ctx: ContractContext, op: IrOperation, probe: Probe): void {
  const response = {
    ...NO_EVENTS,
    status: 101,
    headers: {},
    contentType: '',
    text: '',
    json: undefined,
    events: probe.received,
    malformedEvents: probe.malformed,
  };
  checkResponse(ctx.spec, ctx.report, op, response, `session of ${probe.conversationId}`, {
    [op.parameters.path[0]?.name ?? 'conversation_id']: probe.conversationId,
  });
  probe.close();
}
