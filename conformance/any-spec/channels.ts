/**
 * `casi conformance` on the AsyncAPI channels of any spec. A WebSocket channel gets a session that sends every
 * message the client may send (the documents' examples, then values generated from the schemas) and checks every
 * message it receives; a stream channel (SSE or JSON lines) is read for its framing and the schema of each message,
 * and, where its messages carry ids, read again across forced disconnects resumed with `Last-Event-ID`.
 */
import fc from 'fast-check';
import { WebSocket } from 'ws';
import type { Ir, IrChannel, JsonSchema } from '../../generator/ir/model.js';
import { sampleOf } from '../../generator/schema/sample.js';
import { arbitraryFromSchema } from '../arbitrary-from-schema.js';
import { type AuthOption, credentialFor } from '../auth-option.js';
import { shellQuote } from '../curl.js';
import type { Report } from '../report.js';
import { parseJson } from '../wire.js';
import type { SpecSchemas } from './schemas.js';
import { readStream, type StreamRead } from './stream-read.js';

/** The channel checks, in the order the summary lists them. */
export const CHANNEL_CHECKS = [
  'channel_framing',
  'channel_message_schema',
  'channel_message_acceptance',
  'stream_resume',
] as const;

/** How the channels are reached and how much is sent. */
export interface ChannelCheckOptions {
  readonly baseUrl: string;
  readonly auth: AuthOption | undefined;
  /** Generated client messages per message kind. */
  readonly runs: number;
  readonly seed: number;
  /** The AsyncAPI document as parsed (for its message examples). */
  readonly asyncapi: unknown;
  readonly log: (line: string) => void;
}

/** How long a session or stream may stay quiet before what it sent so far is taken as all. */
const QUIET_MS = 300;
/** Longest a session or a read lasts. */
const MAX_READ_MS = 5_000;
/** Most messages one read of a stream keeps. */
const MAX_MESSAGES = 200;
/** Forced disconnects of the resume check. */
const CUTS = 2;

/** Runs the channel checks on every WebSocket and stream channel of `ir`; returns notes on those left out. */
export async function checkChannels(
  ir: Ir,
  schemas: SpecSchemas,
  report: Report,
  options: ChannelCheckOptions,
): Promise<string[]> {
  const notes: string[] = [];
  const messageSchema = new Map(ir.messages.map((m) => [m.name, schemas.resolve(m.schemaName)]));
  const channels = ir.channels.filter((channel) => {
    if (channel.kind !== 'unsupported') return true;
    notes.push(`channel ${channel.name}: ${channel.protocols.join(', ') || 'its protocol'} is not checked`);
    return false;
  });
  for (const [index, channel] of channels.entries()) {
    options.log(`conformance: [channel ${index + 1}/${channels.length}] ${channel.name} (${channel.kind})`);
    const target = channelTarget(channel, options);
    const receivable = channel.receive.messages.map((name) => messageSchema.get(name) ?? {});
    const problemOf = (value: unknown) => receivedProblem(schemas, receivable, value);
    if (channel.kind === 'websocket') {
      const sent = clientMessages(channel, messageSchema, schemas, options);
      await checkSession(channel, target, sent, problemOf, report);
    } else await checkStream(channel, target, problemOf, report);
  }
  return notes;
}

/** Where a channel is: its URL at `--base-url` (parameters filled in) and the credential's headers. */
export interface ChannelTarget {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly method: string;
}

function channelTarget(channel: IrChannel, options: ChannelCheckOptions): ChannelTarget {
  let address = channel.address;
  for (const p of channel.parameters) {
    const value = sampleOf(p.schema, () => ({}));
    address = address.replace(`{${p.name}}`, encodeURIComponent(String(value)));
  }
  const base = new URL(options.baseUrl);
  const url = new URL(`${base.pathname.replace(/\/$/, '')}${address}`, base);
  const credential = credentialFor(Object.values(channel.security), options.auth);
  for (const [name, value] of Object.entries(credential.query)) url.searchParams.set(name, value);
  if (channel.kind === 'websocket') url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return { url, headers: credential.headers, method: channel.method ?? 'GET' };
}

/** The first problem of a received message: none when one of the channel's receivable messages accepts it. */
function receivedProblem(schemas: SpecSchemas, receivable: readonly JsonSchema[], value: unknown): string | undefined {
  if (receivable.length === 0) return 'the channel documents no message the client receives';
  const problems = receivable.map((schema) => schemas.problem(schema, value));
  if (problems.some((p) => p === undefined)) return undefined;
  return `no message of the channel takes it (first: ${problems[0]})`;
}

/** The messages a client sends on `channel`: each message's examples, then `runs` values generated from its schema. */
function clientMessages(
  channel: IrChannel,
  messageSchema: ReadonlyMap<string, JsonSchema>,
  schemas: SpecSchemas,
  options: ChannelCheckOptions,
): { message: string; value: unknown }[] {
  return channel.send.messages.flatMap((name, index) => {
    const schema = messageSchema.get(name) ?? {};
    const examples = messageExamples(options.asyncapi, name);
    const resolve = (schemaName: string) => schemas.resolve(schemaName);
    const generated = fc.sample(arbitraryFromSchema(schema, { resolve, text: 'ascii', maxItems: 2 }), {
      numRuns: options.runs,
      seed: options.seed + index,
    });
    return [...examples, ...generated].map((value) => ({ message: name, value }));
  });
}

/** The payloads of a message's `examples` in the AsyncAPI document (`components.messages`). */
function messageExamples(asyncapi: unknown, name: string): unknown[] {
  const messages = (asyncapi as { components?: { messages?: Record<string, unknown> } } | undefined)?.components
    ?.messages;
  const examples = (messages?.[name] as { examples?: unknown } | undefined)?.examples;
  if (!Array.isArray(examples)) return [];
  return examples.filter((e) => e !== null && typeof e === 'object' && 'payload' in e).map((e) => e.payload);
}

/**
 * One session on a WebSocket channel: every client message sent in turn, each followed by a quiet wait; every frame
 * received must be JSON its channel takes, and the server must not close the session on a message it documents.
 */
async function checkSession(
  channel: IrChannel,
  target: ChannelTarget,
  sent: readonly { message: string; value: unknown }[],
  problemOf: (value: unknown) => string | undefined,
  report: Report,
): Promise<void> {
  const replay = (frame?: string) =>
    `websocat ${shellQuote(target.url.href)}${frame === undefined ? '' : ` <<< ${shellQuote(frame)}`}`;
  const socket = new WebSocket(target.url, { headers: { ...target.headers } });
  const state: { closed?: { code: number; reason: string } } = {};
  let lastFrame: string | undefined;
  let lastReceived = Date.now();
  socket.on('message', (data, binary) => {
    lastReceived = Date.now();
    const text = data.toString();
    const value = binary ? undefined : parseJson(text);
    const framing = value === undefined ? `a frame that is not JSON: ${text.slice(0, 120)}` : undefined;
    report.record('channel_framing', channel.name, framing, replay(lastFrame));
    if (value !== undefined)
      report.record('channel_message_schema', channel.name, shown(problemOf(value), text), replay(lastFrame));
  });
  socket.on('close', (code, reason) => {
    state.closed = { code, reason: reason.toString() };
  });
  const opened = await new Promise<string | undefined>((resolve) => {
    socket.once('open', () => resolve(undefined));
    socket.once('error', (error) => resolve(error.message));
  });
  if (opened !== undefined) {
    report.record('channel_message_acceptance', channel.name, `the handshake failed: ${opened}`, replay());
    return;
  }
  await quiet(() => lastReceived);
  for (const { message, value } of sent) {
    if (state.closed !== undefined) break;
    lastFrame = JSON.stringify(value);
    socket.send(lastFrame);
    lastReceived = Date.now();
    await quiet(
      () => lastReceived,
      () => state.closed !== undefined,
    );
    const refused = closedBadly(state);
    report.record(
      'channel_message_acceptance',
      channel.name,
      refused && `the server closed the session (${refused.code} ${refused.reason}) after a ${message} message`,
      replay(lastFrame),
    );
  }
  socket.close();
}

/**
 * A stream channel: one read for framing, schemas and ids; where the messages carry ids, a read cut `CUTS` times
 * and resumed with `Last-Event-ID` must give the same ids as the whole read, none lost and none twice.
 */
async function checkStream(
  channel: IrChannel,
  target: ChannelTarget,
  problemOf: (value: unknown) => string | undefined,
  report: Report,
): Promise<void> {
  const sse = /^text\/event-stream/i.test(channel.contentType ?? '');
  const read = (lastEventId?: string, stopAfter = MAX_MESSAGES) =>
    readStream(target, { sse, lastEventId, stopAfter, quietMs: QUIET_MS, maxMs: MAX_READ_MS });
  const replay = (lastEventId?: string) =>
    [
      'curl -N',
      ...(target.method === 'GET' ? [] : ['-X', target.method]),
      ...Object.entries(target.headers).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
      ...(lastEventId === undefined ? [] : [`-H ${shellQuote(`Last-Event-ID: ${lastEventId}`)}`]),
      shellQuote(target.url.href),
    ].join(' ');
  const whole = await read();
  if (whole.error !== undefined) {
    report.record('channel_framing', channel.name, whole.error, replay());
    return;
  }
  recordRead(channel, whole, problemOf, report, replay());
  const ids = whole.messages.map((m) => m.id);
  if (!sse || ids.length < 2 || ids.some((id) => id === undefined)) return;
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  report.record('stream_resume', channel.name, duplicate && `id ${duplicate} comes twice in one read`, replay());
  const seen: string[] = [];
  let lastId: string | undefined;
  for (let cut = 0; cut <= CUTS && seen.length < ids.length; cut++) {
    const share = cut < CUTS ? Math.max(1, Math.floor(ids.length / (CUTS + 1))) : MAX_MESSAGES;
    const part = await read(lastId, share);
    const where = lastId === undefined ? 'from the start' : `resumed with Last-Event-ID ${lastId}`;
    if (part.error !== undefined) {
      report.record('stream_resume', channel.name, `${where}: ${part.error}`, replay(lastId));
      return;
    }
    recordRead(channel, part, problemOf, report, replay(lastId));
    const got = part.messages.map((m) => m.id ?? '');
    const expected = ids.slice(seen.length, seen.length + got.length);
    const lost = expected.find((id) => !got.includes(id as string));
    const again = got.find((id) => seen.includes(id));
    const problem =
      again !== undefined
        ? `${where}: event ${again} came again`
        : lost !== undefined
          ? `${where}: event ${lost} was lost (expected ${expected.join(', ')}; got ${got.join(', ')})`
          : undefined;
    if (problem !== undefined) {
      report.record('stream_resume', channel.name, problem, replay(lastId));
      return;
    }
    seen.push(...got);
    lastId = seen.at(-1) ?? lastId;
  }
  const missing = ids.slice(seen.length);
  report.record(
    'stream_resume',
    channel.name,
    missing.length > 0 ? `events ${missing.join(', ')} never came after Last-Event-ID ${lastId}` : undefined,
    replay(lastId),
  );
}

/** The framing and schema verdicts of one read. */
function recordRead(
  channel: IrChannel,
  read: StreamRead,
  problemOf: (value: unknown) => string | undefined,
  report: Report,
  replay: string,
): void {
  report.record('channel_framing', channel.name, read.framing, replay);
  for (const bad of read.malformed)
    report.record('channel_framing', channel.name, `a message that is not JSON: ${bad.slice(0, 120)}`, replay);
  for (const { value, text } of read.messages)
    report.record('channel_message_schema', channel.name, shown(problemOf(value), text), replay);
}

/** How the server closed a session, unless it did not or closed it normally (1000). */
function closedBadly(state: {
  closed?: { code: number; reason: string };
}): { code: number; reason: string } | undefined {
  return state.closed !== undefined && state.closed.code !== 1000 ? state.closed : undefined;
}

function shown(problem: string | undefined, text: string): string | undefined {
  return problem && `${problem}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** Resolves once nothing arrived for `QUIET_MS` (or `done` says so), at most `MAX_READ_MS` after the start. */
async function quiet(last: () => number, done: () => boolean = () => false): Promise<void> {
  const start = Date.now();
  while (!done() && Date.now() - last() < QUIET_MS && Date.now() - start < MAX_READ_MS)
    await new Promise((resolve) => setTimeout(resolve, 25));
}
