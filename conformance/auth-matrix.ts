/**
 * The auth matrix: every operation of the IR × every kind of credential — none, malformed, unknown key, another
 * organisation's key, a read-only key, a conversation token on REST, a token of another conversation, an expired
 * token (fake clock), a token replaced by refresh — answers the status of spec/DECISIONS.md ("Tokens", "Error
 * codes"), a write-key control succeeds, and no answer to another organisation carries organisation A's ids. On a
 * WebSocket operation, client events are writes: each one a read-only key sends is answered by `server.error`
 * `forbidden`, while those of a write key or the conversation's token are performed (DECISIONS.md "WebSocket").
 */
import type { IrOperation, IrParameter } from '../generator/ir/model.js';
import type { ContractContext } from './context.js';
import { orderedOperations } from './context.js';
import { checkedCall, clientFor } from './fixtures.js';
import { checkPositive } from './positive.js';
import { type Credential, describeRequest, type RequestParts, toWire } from './requests.js';
import { checkResponse } from './response-checks.js';
import { refName, SERVICE_VERSION_SCHEMA } from './spec.js';
import { createForDeletion } from './use-after-free.js';
import { describeAnswer, isSuccess, send, type WireResponse } from './wire.js';

/** What a credential must get: a success, or an error status and code (or any of several). */
type Expectation =
  | { readonly success: true }
  | { readonly status: number; readonly code: string }
  | { readonly anyOf: readonly Expectation[] };

/** One row entry: a credential and what it must get on an operation. */
interface CredentialCase {
  readonly name: string;
  readonly credential: Credential;
  readonly expect: Expectation;
  /** The conversation whose stream or session is opened (token cases), instead of the matrix conversation. */
  readonly conversationId?: string;
}

/** Conversations made for the token cases, each with its token. */
interface TokenWorld {
  /** The conversation every stream and session case opens. */
  readonly own: { readonly id: string; readonly token: string };
  /** A token of another conversation. */
  readonly otherToken: string;
  /** A conversation whose first token was replaced by a refresh. */
  readonly refreshed: { readonly id: string; readonly oldToken: string };
  /** A conversation whose token expires when the clock moves past the TTL. */
  readonly expiring: { readonly id: string; readonly token: string };
}

const SUCCESS: Expectation = { success: true };
const UNAUTHORIZED: Expectation = { status: 401, code: 'unauthorized' };
const TOKEN_EXPIRED: Expectation = { status: 401, code: 'token_expired' };

/**
 * Runs the matrix against `ctx.target`, which needs a read-only key and another organisation's key; the expired-token
 * cases run only when it has a fake clock (and `tokenTtlSeconds` is given).
 */
export async function runAuthMatrix(ctx: ContractContext, tokenTtlSeconds?: number): Promise<void> {
  const { target } = ctx;
  const { read, otherOrg } = target.keys;
  if (read === undefined || otherOrg === undefined)
    throw new Error('the auth matrix needs a read-only key and a key of another organisation');
  const ops = orderedOperations(ctx.spec);
  for (const op of ops.filter((o) => o.method !== 'delete')) await checkPositive(ctx, op);
  const world = await makeTokenWorld(ctx);
  const orgIds = [...ctx.fixtures.ids, world.own.id, world.refreshed.id, world.expiring.id];
  const deferred: (() => Promise<void>)[] = [];
  for (const op of ops) {
    const deletable = op.method === 'delete' ? await createForDeletion(ctx, op) : undefined;
    orgIds.push(...(deletable?.created ?? []));
    const good = deletable ? deletable.parts : ctx.goodRequests.get(op.id);
    if (!good) {
      ctx.report.record('auth_matrix', op.id, `no good request of ${op.id} to start from`);
      continue;
    }
    const streaming = op.transport !== 'http';
    const parts = streaming ? withConversation(op, good, world.own.id) : good;
    const cases = credentialCases(op, parts, { write: target.keys.write, read, otherOrg }, world, orgIds);
    for (const c of cases) {
      const run = () =>
        probe(ctx, op, c, c.conversationId ? withConversation(op, good, c.conversationId) : parts, orgIds);
      if (streaming && c.conversationId === world.expiring.id) deferred.push(run);
      else await run();
    }
    await probe(
      ctx,
      op,
      { name: 'write key (control)', credential: { apiKey: target.keys.write }, expect: SUCCESS },
      parts,
      [],
    );
    if (op.transport === 'websocket') await checkClientEventScopes(ctx, op, good, { write: target.keys.write, read });
  }
  // Expiry needs time travel: only a server on a fake clock (in process) gets the expired-token cases.
  if (target.clock === undefined || tokenTtlSeconds === undefined) return;
  await target.clock.advance((tokenTtlSeconds + 1) * 1000);
  for (const run of deferred) await run();
}

/** The credential cases of `op`; which apply and what they get depends on its transport and method. */
function credentialCases(
  op: IrOperation,
  parts: RequestParts,
  keys: { write: string; read: string; otherOrg: string },
  world: TokenWorld,
  orgIds: readonly string[],
): CredentialCase[] {
  const { write, read, otherOrg } = keys;
  const tokens = op.security.includes('conversationToken');
  const reading = op.method === 'get';
  const names = (value: unknown) => orgIds.some((id) => JSON.stringify(value ?? null).includes(id));
  // Naming org A's resource in the path is 404; in the body, 404 or 400 naming the member (DECISIONS.md "Tokens",
  // reference/README.md); other requests run in org B's own space, and their answers are checked for leaks.
  const otherOrgGets: Expectation = names(parts.path)
    ? { status: 404, code: 'not_found' }
    : names(parts.body) || names(parts.query)
      ? { anyOf: [SUCCESS, { status: 404, code: 'not_found' }, { status: 400, code: 'invalid_request' }] }
      : SUCCESS;
  return [
    { name: 'no credentials', credential: undefined, expect: UNAUTHORIZED },
    { name: 'Bearer without a key', credential: { authorization: 'Bearer' }, expect: UNAUTHORIZED },
    { name: 'not a Bearer header', credential: { authorization: `Token ${write}` }, expect: UNAUTHORIZED },
    { name: 'unknown API key', credential: { apiKey: 'conformance_nobody' }, expect: UNAUTHORIZED },
    { name: "another organisation's key", credential: { apiKey: otherOrg }, expect: otherOrgGets },
    {
      name: 'read-only key',
      credential: { apiKey: read },
      expect: reading ? SUCCESS : { status: 403, code: 'forbidden' },
    },
    { name: 'conversation token as Bearer', credential: { apiKey: world.own.token }, expect: UNAUTHORIZED },
    ...(tokens
      ? [
          { name: 'its own conversation token', credential: { token: world.own.token }, expect: SUCCESS },
          {
            name: 'token of another conversation',
            credential: { token: world.otherToken },
            expect: { status: 403, code: 'forbidden' },
          },
          {
            name: 'token replaced by refresh',
            credential: { token: world.refreshed.oldToken },
            expect: TOKEN_EXPIRED,
            conversationId: world.refreshed.id,
          },
          {
            name: 'expired token',
            credential: { token: world.expiring.token },
            expect: TOKEN_EXPIRED,
            conversationId: world.expiring.id,
          },
        ]
      : [
          { name: 'conversation token on REST', credential: { token: world.own.token }, expect: UNAUTHORIZED },
          {
            name: 'token of another conversation on REST',
            credential: { token: world.otherToken },
            expect: UNAUTHORIZED,
          },
          {
            name: 'refreshed-away token on REST',
            credential: { token: world.refreshed.oldToken },
            expect: UNAUTHORIZED,
          },
        ]),
  ];
}

/**
 * Sends one example of every client event of the IR on a fresh conversation's session, with each credential: a
 * read-only key must get `server.error` `forbidden` naming each event, a write key or the conversation's token none.
 */
async function checkClientEventScopes(
  ctx: ContractContext,
  op: IrOperation,
  good: RequestParts,
  keys: { write: string; read: string },
): Promise<void> {
  const samples = ctx.spec.ir.events
    .filter((e) => e.direction === 'client' && e.examples.length > 0)
    .map((e, i) => ({ ...(e.examples[0] as Record<string, unknown>), id: `scope_${i}` }));
  // The end last: the events before it must find the conversation open.
  samples.sort(
    (a, b) =>
      Number(JSON.stringify(a).includes('conversation.end')) - Number(JSON.stringify(b).includes('conversation.end')),
  );
  const frames = samples.map((sample) => JSON.stringify(sample));
  const world = await makeTokenWorld(ctx);
  const credentials: { name: string; credential: Credential; forbidden: boolean }[] = [
    { name: 'read-only key sending client events', credential: { apiKey: keys.read }, forbidden: true },
    { name: 'write key sending client events', credential: { apiKey: keys.write }, forbidden: false },
    { name: 'its own token sending client events', credential: { token: world.own.token }, forbidden: false },
  ];
  for (const c of credentials) {
    const conversationId = c.credential && 'token' in c.credential ? world.own.id : (await makeTokenWorld(ctx)).own.id;
    const request = { ...toWire(op, withConversation(op, good, conversationId), c.credential), frames };
    const response = await send(ctx.target.baseUrl, request, { idleMs: 150 });
    const errors = new Map<unknown, string>();
    for (const event of response.events as {
      payload?: { type?: unknown; error?: unknown; source_event_id?: unknown };
    }[])
      if (event.payload?.type === 'server.error')
        errors.set(event.payload.source_event_id, String(event.payload.error));
    const problems = samples.flatMap((sample) => {
      const error = errors.get(sample.id);
      const forbidden = error?.startsWith('forbidden') === true;
      if (c.forbidden === forbidden) return [];
      return [`${JSON.stringify(sample)} → ${error === undefined ? 'no server.error' : `server.error ${error}`}`];
    });
    const context = `${c.name}: ${describeRequest(request)}`;
    if (response.status !== 101) problems.unshift(`expected the session to open, got ${describeAnswer(response, 200)}`);
    ctx.report.record('auth_matrix', op.id, problems.length ? `${context} → ${problems.join('; ')}` : undefined);
  }
}

/** Sends one case and records `auth_matrix` (and the response checks); answers to org B are checked for leaks. */
async function probe(
  ctx: ContractContext,
  op: IrOperation,
  c: CredentialCase,
  parts: RequestParts,
  orgIds: readonly string[],
): Promise<void> {
  const request = toWire(op, parts, c.credential);
  const context = `${c.name}: ${describeRequest(request)}`;
  const response = await send(ctx.target.baseUrl, request);
  checkResponse(ctx.spec, ctx.report, op, response, context, parts.path);
  const sentText = JSON.stringify([parts.path, parts.query, parts.body ?? null]);
  const unsent = orgIds.filter((id) => !sentText.includes(id));
  const problem = expectationProblem(c.expect, response) ?? leak(c, response, unsent, ctx.target.keys.otherOrg);
  ctx.report.record('auth_matrix', op.id, problem && `${context} → ${problem}`);
}

function expectationProblem(expect: Expectation, response: WireResponse): string | undefined {
  const got = describeAnswer(response, 200);
  if ('anyOf' in expect)
    return expect.anyOf.some((e) => expectationProblem(e, response) === undefined)
      ? undefined
      : `expected one of ${JSON.stringify(expect.anyOf)}, got ${got}`;
  if ('success' in expect) return isSuccess(response) ? undefined : `expected a success, got ${got}`;
  const code = (response.json as { code?: unknown } | undefined)?.code;
  return response.status === expect.status && code === expect.code
    ? undefined
    : `expected ${expect.status} ${expect.code}, got ${got}`;
}

/** An id of organisation A (other than those the request itself named) in an answer to organisation B's key. */
function leak(
  c: CredentialCase,
  response: WireResponse,
  orgIds: readonly string[],
  otherOrg: string | undefined,
): string | undefined {
  if (!(c.credential && 'apiKey' in c.credential && c.credential.apiKey === otherOrg)) return undefined;
  const text = response.text + JSON.stringify(response.events);
  const found = orgIds.find((id) => text.includes(id));
  return found === undefined
    ? undefined
    : `organisation A's ${found} in an answer to organisation B: ${text.slice(0, 300)}`;
}

/**
 * `good` with its conversation path parameter set to `conversationId`, and without its optional parameters other
 * than the API version (a resume position of another conversation would be 400 `unknown_event_id`).
 */
function withConversation(op: IrOperation, good: RequestParts, conversationId: string): RequestParts {
  const name = op.parameters.path[0]?.name;
  const keep = (p: IrParameter) => p.required || refName(p.schema) === SERVICE_VERSION_SCHEMA;
  const only = (values: Readonly<Record<string, string>>, params: readonly IrParameter[]) =>
    Object.fromEntries(Object.entries(values).filter(([k]) => params.some((p) => p.name === k && keep(p))));
  return {
    ...good,
    path: name === undefined ? good.path : { ...good.path, [name]: conversationId },
    query: only(good.query, op.parameters.query),
    headers: only(good.headers, op.parameters.header),
  };
}

async function makeTokenWorld(ctx: ContractContext): Promise<TokenWorld> {
  const client = clientFor(ctx.target.baseUrl, ctx.target.keys.write);
  const chat = () =>
    checkedCall(ctx.spec, client, 'createConversation', () =>
      client.conversations.create({ agent_id: ctx.fixtures.agent.id, channel: { type: 'chat_realtime' } }),
    );
  const [own, other, refreshed, expiring] = [await chat(), await chat(), await chat(), await chat()];
  await checkedCall(ctx.spec, client, 'refreshConversationToken', () =>
    client.conversations.refreshToken(refreshed.id),
  );
  return {
    own: { id: own.id, token: own.channel.token },
    otherToken: other.channel.token,
    refreshed: { id: refreshed.id, oldToken: refreshed.channel.token },
    expiring: { id: expiring.id, token: expiring.channel.token },
  };
}
