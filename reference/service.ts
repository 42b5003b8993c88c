/**
 * The reference service, transport-free: one method per operationId taking `(auth, params, query, body)` and
 * returning the answer's body or throwing `ServiceError`, plus the event stream and session for SSE and WebSocket.
 * Requests are expected to be validated against the spec already (the generated HTTP layer does it).
 */
import type { ServerErrorEvent } from '../generated/src/types.gen.js';
import { parseAgentRef } from './agent-refs.js';
import { toAgentVersion, toConversationalAgent, toProceduralAgent, toProceduralListItem } from './agent-views.js';
import { AgentCatalog, type AgentInput, type AgentPatch } from './agents.js';
import {
  Authenticator,
  type Credentials,
  canWrite,
  type Principal,
  requireConversationAccess,
  requireKey,
  requireWrite,
} from './auth.js';
import { DEFAULT_EVENT_LIMITS, MemoryEventBus } from './bus/memory.js';
import type { EventBus, Subscription } from './bus/types.js';
import { type Clock, systemClock } from './clock.js';
import { CONFIG_DEFAULTS, type ReferenceConfig } from './config.js';
import { checkLanguage } from './config-checks.js';
import { ConversationService } from './conversations.js';
import { CustomerDirectory } from './customers.js';
import type { Notices } from './database/notices.js';
import type { DatabaseTimerRows, TimerRow } from './database/timer-rows.js';
import { withConversationalDefaults, withProceduralDefaults } from './defaults.js';
import { invalidRequest, notFound, ServiceError } from './errors.js';
import { KeyedQueue, type Locks } from './keyed-queue.js';
import { timeFilter } from './lists.js';
import { phoneStep } from './phone.js';
import { PROCEDURE_TIMER, ProcedureRunner } from './procedures.js';
import { RateLimiter } from './rate-limit.js';
import type { LiveConversation } from './runtime.js';
import { ConversationRuntime } from './runtime.js';
import { IDLE_TIMER, ScriptedAgent } from './scripted-agent.js';
import type {
  PathParams,
  QueryParams,
  RequestBody,
  RequestContext,
  ResponseBody,
  ServiceOperations,
} from './service-types.js';
import { SessionFrames } from './sessions.js';
import { createMemoryStore } from './store/memory.js';
import type { AgentVersionRecord } from './store/records.js';
import type { Store } from './store/types.js';
import { type EventStreamOpening, EventStreams } from './streams.js';
import { type ErrorReporter, TimerGroup } from './timers.js';
import { type TokenHold, TokenService } from './tokens.js';
import { WEBHOOK_TIMER, WebhookSender } from './webhook.js';

/** The settings the service uses (the rest of `ReferenceConfig` is for the HTTP server). */
export type ServiceSettings = Pick<
  ReferenceConfig,
  | 'apiKeys'
  | 'tokenTtlSeconds'
  | 'eventRetentionSeconds'
  | 'rateLimit'
  | 'chatAsyncIdleSeconds'
  | 'webhook'
  | 'eventLimits'
>;

/** How to build the service; everything but the API keys has a default (in-memory store and bus, wall clock). */
export interface ReferenceServiceOptions {
  readonly settings: Partial<ServiceSettings> & Pick<ServiceSettings, 'apiKeys'>;
  readonly clock?: Clock;
  readonly store?: Store;
  readonly bus?: EventBus;
  /** Errors of background work (timers, webhooks). Default: `console.error`. */
  readonly onError?: ErrorReporter;
  /** Used by the webhook sender. Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Per-key locks (conversations, agents, customers); across processes on a shared database. Default: in process. */
  readonly locks?: Locks;
  /** Notices to the other processes sharing the database (a refreshed token). Default: none (one process). */
  readonly notices?: Notices;
  /** Rows of the timers a process can resume (a call's steps, procedures). Default: none (timers in process only). */
  readonly timerRows?: DatabaseTimerRows;
}

/**
 * How often a process with timer rows looks for rows overdue in no process (one that stopped, or whose lease is
 * over), and by how much.
 */
export const TIMER_TAKEOVER_MS = 1_000;

/** A WebSocket session's domain side: the events to send, and the handler of client frames. */
export interface Session {
  /** History (or the events after `last_event_id`), then live events; done after `conversation.ended`. */
  readonly events: Subscription;
  /** Performs a client frame (null) or returns the `server.error` to send to this socket only. */
  handleFrame(text: string, binary?: boolean): Promise<ServerErrorEvent | null>;
}

/** How often a database bus is swept for logs whose retention is over. */
export const RETENTION_SWEEP_MS = 60_000;

/** The stateful emulator of the service. */
export class ReferenceService implements ServiceOperations {
  readonly clock: Clock;
  readonly store: Store;
  readonly bus: EventBus;
  private readonly timers: TimerGroup;
  private readonly timerRows: DatabaseTimerRows | null;
  private readonly onError: ErrorReporter;
  private readonly agent: ScriptedAgent;
  private readonly authenticator: Authenticator;
  private readonly conversational: AgentCatalog<'conversational'>;
  private readonly procedural: AgentCatalog<'procedural'>;
  private readonly conversations: ConversationService;
  private readonly customers: CustomerDirectory;
  private readonly procedures: ProcedureRunner;
  private readonly runtime: ConversationRuntime;
  private readonly streams: EventStreams;
  private readonly sessions: SessionFrames;
  private readonly tokens: TokenService;
  private readonly webhook: WebhookSender | null;

  constructor(options: ReferenceServiceOptions) {
    const settings = {
      ...CONFIG_DEFAULTS,
      rateLimit: null,
      webhook: null,
      eventLimits: DEFAULT_EVENT_LIMITS,
      ...options.settings,
    };
    const onError = options.onError ?? ((error, context) => console.error(`[casi reference] ${context}:`, error));
    this.onError = onError;
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? createMemoryStore();
    this.bus = options.bus ?? new MemoryEventBus(settings.eventLimits);
    const { clock, store, bus } = this;
    const queue = options.locks ?? new KeyedQueue();
    this.timerRows = options.timerRows ?? null;
    this.timers = new TimerGroup(clock, onError, this.timerRows, (name) => this.resumable(name) !== undefined);
    const retentionMs = settings.eventRetentionSeconds * 1000;
    const tokens = new TokenService(store, clock, settings.tokenTtlSeconds, options.notices ?? null);
    this.tokens = tokens;
    const limiter = settings.rateLimit === null ? null : new RateLimiter(settings.rateLimit, clock);
    this.authenticator = new Authenticator(settings.apiKeys, tokens, limiter);
    this.procedural = new AgentCatalog(
      {
        kind: 'procedural',
        prefix: 'pa',
        label: 'procedural agent',
        collection: store.proceduralAgents,
        normalize: withProceduralDefaults,
        check: async () => undefined,
      },
      clock,
      queue,
    );
    this.conversational = new AgentCatalog(
      {
        kind: 'conversational',
        prefix: 'ca',
        label: 'conversational agent',
        collection: store.conversationalAgents,
        normalize: withConversationalDefaults,
        check: (org, version, sent) => this.checkConversationalVersion(org, version, sent),
      },
      clock,
      queue,
    );
    this.runtime = new ConversationRuntime({ store, bus, clock, queue, timers: this.timers, retentionMs });
    const agent = new ScriptedAgent({ chatAsyncIdleMs: settings.chatAsyncIdleSeconds * 1000 });
    this.agent = agent;
    this.customers = new CustomerDirectory(store, clock, queue);
    const webhook =
      settings.webhook === null
        ? null
        : new WebhookSender(settings.webhook, clock, this.timers, bus, onError, options.fetch);
    this.webhook = webhook;
    this.conversations = new ConversationService({
      store,
      clock,
      runtime: this.runtime,
      agent,
      conversational: this.conversational,
      customers: this.customers,
      tokens,
      retentionMs,
      ...(webhook === null ? {} : { onSetup: (event) => webhook.send(event).written }),
    });
    this.procedures = new ProcedureRunner({
      store,
      bus,
      clock,
      queue,
      timers: this.timers,
      procedural: this.procedural,
      runtime: this.runtime,
    });
    this.runtime.onEnded((record) => this.procedures.onConversationEnded(record));
    this.streams = new EventStreams(bus, this.conversations);
    this.sweepRetention(retentionMs);
    this.sessions = new SessionFrames(this.runtime, agent, bus);
  }

  /**
   * With a database bus: deletes the logs whose retention is over every `RETENTION_SWEEP_MS` (or the retention, if
   * shorter), by SQL. Every process sweeps; each log is deleted once.
   */
  private sweepRetention(retentionMs: number): void {
    const { bus, clock, timers } = this;
    if (bus.purgeEndedBefore === undefined) return;
    const every = Math.max(1, Math.min(RETENTION_SWEEP_MS, retentionMs));
    const sweep = async () => {
      timers.set('retention', every, sweep);
      await bus.purgeEndedBefore?.(new Date(clock.now() - retentionMs).toISOString());
    };
    timers.set('retention', every, sweep);
  }

  /** The caller of a request (API key or conversation token); 401 / 429 as `ServiceError`. */
  authenticate(credentials: Credentials): Promise<Principal> {
    return this.authenticator.authenticate(credentials);
  }

  /**
   * Starts following what other processes sharing the database do (refreshed tokens) and sets the timers kept as
   * rows again (those of a process that stopped); call before serving.
   */
  async listen(): Promise<void> {
    await this.tokens.listen();
    if (this.timerRows === null) return;
    for (const row of await this.timerRows.due(Number.MAX_SAFE_INTEGER, this.clock.now())) this.resume(row);
    const takeOver = async () => {
      this.timers.set('timer-takeover', TIMER_TAKEOVER_MS, takeOver);
      const now = this.clock.now();
      const overdue = await this.timerRows?.due(now - TIMER_TAKEOVER_MS, now);
      for (const row of overdue ?? []) if (!this.timers.has(row.name)) this.resume(row);
    };
    this.timers.set('timer-takeover', TIMER_TAKEOVER_MS, takeOver);
  }

  /** What a timer of this name runs, found from the name alone; undefined for a timer that is not resumable. */
  private resumable(name: string): (() => Promise<void>) | undefined {
    if (name.startsWith(WEBHOOK_TIMER)) return this.webhook?.resumable(name);
    if (name.startsWith(PROCEDURE_TIMER)) return this.procedures.timerTask(name.slice(PROCEDURE_TIMER.length));
    const slash = name.indexOf('/');
    const step = name.slice(slash + 1);
    const phone = phoneStep(step);
    const task: ((live: LiveConversation) => Promise<void>) | undefined =
      step === IDLE_TIMER
        ? (live) => live.end({ status: 'completed' })
        : phone === undefined
          ? undefined
          : (live) => phone(live, this.agent);
    if (slash < 0 || task === undefined) return undefined;
    return this.runtime.timerTask(name.slice(0, slash), task);
  }

  /** Sets a timer kept as a row again in this process (it fires here only if this process claims the row). */
  private resume(row: TimerRow): void {
    const task = this.resumable(row.name);
    if (task !== undefined) this.timers.resume(row.name, row.dueAt, task);
  }

  /** Stops every timer (phone progress, procedures, retention, webhooks). */
  close(): void {
    this.timers.close();
  }

  // --- conversational agents ----------------------------------------------------------------------------------

  async createConversationalAgent(
    auth: Principal,
    _params: PathParams<'createConversationalAgent'>,
    _query: QueryParams<'createConversationalAgent'>,
    body: RequestBody<'createConversationalAgent'>,
  ): Promise<ResponseBody<'createConversationalAgent'>> {
    return this.conversational.create(requireWrite(auth).org, body as AgentInput<'conversational'>);
  }

  async updateConversationalAgent(
    auth: Principal,
    params: PathParams<'updateConversationalAgent'>,
    _query: QueryParams<'updateConversationalAgent'>,
    body: RequestBody<'updateConversationalAgent'>,
  ): Promise<ResponseBody<'updateConversationalAgent'>> {
    return this.conversational.update(requireWrite(auth).org, params.id, body as AgentPatch<'conversational'>);
  }

  async getConversationalAgent(
    auth: Principal,
    params: PathParams<'getConversationalAgent'>,
    _query?: QueryParams<'getConversationalAgent'>,
    _body?: RequestBody<'getConversationalAgent'>,
  ): Promise<ResponseBody<'getConversationalAgent'>> {
    const { agent, version } = await this.conversational.find(requireKey(auth).org, params.id);
    return toConversationalAgent(agent, version);
  }

  async listConversationalAgentVersions(
    auth: Principal,
    params: PathParams<'listConversationalAgentVersions'>,
    _query?: QueryParams<'listConversationalAgentVersions'>,
    _body?: RequestBody<'listConversationalAgentVersions'>,
  ): Promise<ResponseBody<'listConversationalAgentVersions'>> {
    const agent = await this.conversational.agent(requireKey(auth).org, bareId(params.id, 'ca'));
    return { data: agent.versions.map((version) => toAgentVersion(agent, version)) };
  }

  async releaseConversationalAgent(
    auth: Principal,
    params: PathParams<'releaseConversationalAgent'>,
    _query?: QueryParams<'releaseConversationalAgent'>,
    _body?: RequestBody<'releaseConversationalAgent'>,
  ): Promise<ResponseBody<'releaseConversationalAgent'>> {
    return this.conversational.release(requireWrite(auth).org, params.version_id);
  }

  // --- procedural agents --------------------------------------------------------------------------------------

  async createProceduralAgent(
    auth: Principal,
    _params: PathParams<'createProceduralAgent'>,
    _query: QueryParams<'createProceduralAgent'>,
    body: RequestBody<'createProceduralAgent'>,
  ): Promise<ResponseBody<'createProceduralAgent'>> {
    return this.procedural.create(requireWrite(auth).org, body as AgentInput<'procedural'>);
  }

  async listProceduralAgents(
    auth: Principal,
    _params?: PathParams<'listProceduralAgents'>,
    _query?: QueryParams<'listProceduralAgents'>,
    _body?: RequestBody<'listProceduralAgents'>,
  ): Promise<ResponseBody<'listProceduralAgents'>> {
    const agents = await this.procedural.list(requireKey(auth).org);
    return { data: agents.map(toProceduralListItem) };
  }

  async getProceduralAgent(
    auth: Principal,
    params: PathParams<'getProceduralAgent'>,
    _query?: QueryParams<'getProceduralAgent'>,
    _body?: RequestBody<'getProceduralAgent'>,
  ): Promise<ResponseBody<'getProceduralAgent'>> {
    const { agent, version } = await this.procedural.find(requireKey(auth).org, params.id);
    return toProceduralAgent(agent, version);
  }

  async updateProceduralAgent(
    auth: Principal,
    params: PathParams<'updateProceduralAgent'>,
    _query: QueryParams<'updateProceduralAgent'>,
    body: RequestBody<'updateProceduralAgent'>,
  ): Promise<ResponseBody<'updateProceduralAgent'>> {
    return this.procedural.update(requireWrite(auth).org, params.id, body as AgentPatch<'procedural'>);
  }

  async deleteProceduralAgent(
    auth: Principal,
    params: PathParams<'deleteProceduralAgent'>,
    _query?: QueryParams<'deleteProceduralAgent'>,
    _body?: RequestBody<'deleteProceduralAgent'>,
  ): Promise<ResponseBody<'deleteProceduralAgent'>> {
    const { org } = requireWrite(auth);
    await this.procedural.delete(org, params.id);
    await this.procedures.cancelPending(org, params.id);
    return { id: params.id, deleted: true };
  }

  async listProceduralAgentVersions(
    auth: Principal,
    params: PathParams<'listProceduralAgentVersions'>,
    _query?: QueryParams<'listProceduralAgentVersions'>,
    _body?: RequestBody<'listProceduralAgentVersions'>,
  ): Promise<ResponseBody<'listProceduralAgentVersions'>> {
    const agent = await this.procedural.agent(requireKey(auth).org, bareId(params.id, 'pa'));
    return { data: agent.versions.map((version) => toAgentVersion(agent, version)) };
  }

  async releaseProceduralAgent(
    auth: Principal,
    params: PathParams<'releaseProceduralAgent'>,
    _query?: QueryParams<'releaseProceduralAgent'>,
    _body?: RequestBody<'releaseProceduralAgent'>,
  ): Promise<ResponseBody<'releaseProceduralAgent'>> {
    return this.procedural.release(requireWrite(auth).org, params.version_id);
  }

  // --- conversations ------------------------------------------------------------------------------------------

  async createConversation(
    auth: Principal,
    _params: PathParams<'createConversation'>,
    _query: QueryParams<'createConversation'>,
    body: RequestBody<'createConversation'>,
    context: RequestContext,
  ): Promise<ResponseBody<'createConversation'>> {
    return this.conversations.create(requireWrite(auth).org, body, context.baseUrl);
  }

  async listConversations(
    auth: Principal,
    _params: PathParams<'listConversations'> = {},
    query: QueryParams<'listConversations'> = {},
    _body?: RequestBody<'listConversations'>,
  ): Promise<ResponseBody<'listConversations'>> {
    return this.conversations.list(requireKey(auth).org, query);
  }

  async getConversation(
    auth: Principal,
    params: PathParams<'getConversation'>,
    _query?: QueryParams<'getConversation'>,
    _body?: RequestBody<'getConversation'>,
  ): Promise<ResponseBody<'getConversation'>> {
    return this.conversations.get(requireKey(auth).org, params.conversation_id);
  }

  async injectConversationContext(
    auth: Principal,
    params: PathParams<'injectConversationContext'>,
    _query: QueryParams<'injectConversationContext'>,
    body: RequestBody<'injectConversationContext'>,
  ): Promise<ResponseBody<'injectConversationContext'>> {
    const { org } = requireWrite(auth);
    return this.conversations.injectContext(org, params.conversation_id, body.data, body.trigger_response ?? false);
  }

  async refreshConversationToken(
    auth: Principal,
    params: PathParams<'refreshConversationToken'>,
    _query?: QueryParams<'refreshConversationToken'>,
    _body?: RequestBody<'refreshConversationToken'>,
  ): Promise<ResponseBody<'refreshConversationToken'>> {
    return this.conversations.refreshToken(requireWrite(auth).org, params.conversation_id);
  }

  // --- customers and procedures -------------------------------------------------------------------------------

  async getCustomer(
    auth: Principal,
    params: PathParams<'getCustomer'>,
    _query?: QueryParams<'getCustomer'>,
    _body?: RequestBody<'getCustomer'>,
  ): Promise<ResponseBody<'getCustomer'>> {
    return this.customers.get(requireKey(auth).org, params.customer_id);
  }

  async listProcedures(
    auth: Principal,
    _params: PathParams<'listProcedures'> = {},
    query: QueryParams<'listProcedures'> = {},
    _body?: RequestBody<'listProcedures'>,
  ): Promise<ResponseBody<'listProcedures'>> {
    return this.procedures.list(requireKey(auth).org, {
      ...query,
      created_at_gte: timeFilter(query.created_at_gte, 'created_at_gte'),
      created_at_lt: timeFilter(query.created_at_lt, 'created_at_lt'),
    });
  }

  async getProcedure(
    auth: Principal,
    params: PathParams<'getProcedure'>,
    _query?: QueryParams<'getProcedure'>,
    _body?: RequestBody<'getProcedure'>,
  ): Promise<ResponseBody<'getProcedure'>> {
    return this.procedures.get(requireKey(auth).org, params.procedure_id);
  }

  // --- events -------------------------------------------------------------------------------------------------

  /**
   * `GET /conversations/{conversation_id}/events`: the events to send (history or those after `lastEventId`,
   * then live ones, done after `conversation.ended`), or `{status: 204}`. API key or the conversation's token.
   */
  async openEventStream(auth: Principal, conversationId: string, lastEventId?: string): Promise<EventStreamOpening> {
    requireConversationAccess(auth, conversationId);
    return this.streams.open(auth.org, conversationId, lastEventId, true);
  }

  /** `GET /conversations/{conversation_id}/session` (WebSocket): the same events, and the client-frame handler. */
  async openSession(auth: Principal, conversationId: string, lastEventId?: string): Promise<Session> {
    requireConversationAccess(auth, conversationId);
    const opening = await this.streams.open(auth.org, conversationId, lastEventId, false);
    if (opening.status !== 200) throw new Error('unreachable: sessions never answer 204');
    return {
      events: opening.events,
      handleFrame: (text, binary = false) =>
        this.sessions.handleClientFrame(conversationId, text, binary, canWrite(auth)),
    };
  }

  /**
   * The hold of a connection (event stream or session) that `auth` opened: for a conversation token, aborted when a
   * refresh replaces the token or when it expires (DECISIONS.md, "Tokens"); for an API key, never. `release()` when
   * the connection closes.
   */
  holdCredentials(auth: Principal): TokenHold {
    if (auth.kind === 'token') return this.tokens.hold(auth.token, auth.expiresAt);
    return { signal: new AbortController().signal, release: () => {} };
  }

  /** The session logic alone (tests, or a transport that manages subscriptions itself). */
  handleClientFrame(
    conversationId: string,
    text: string,
    binary = false,
    writable = true,
  ): Promise<ServerErrorEvent | null> {
    return this.sessions.handleClientFrame(conversationId, text, binary, writable);
  }

  // --- checks -------------------------------------------------------------------------------------------------

  /**
   * Language rule, and every `postprocess_agents` entry the request sent must name a procedural agent (or version)
   * of the org. Entries kept from an earlier version may name an agent deleted since (DECISIONS.md, "DELETE"):
   * such a conversation gets no procedure for it.
   */
  private async checkConversationalVersion(
    org: string,
    version: AgentVersionRecord<'conversational'>,
    sent: AgentPatch<'conversational'>,
  ) {
    checkLanguage(version.config);
    for (const [index, ref] of (sent.postprocess_agents ?? []).entries()) {
      try {
        await this.procedural.find(org, ref);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        throw invalidRequest([
          { in: 'body', pointer: `/postprocess_agents/${index}`, message: `${ref} names no procedural agent` },
        ]);
      }
    }
  }
}

/** The agent id of a path that takes `ca_<id>` / `pa_<id>` only; a version id there is 404. */
function bareId(id: string, prefix: 'ca' | 'pa'): string {
  const parsed = parseAgentRef(id, prefix);
  if (parsed === null || parsed.version !== null)
    throw notFound(prefix === 'ca' ? 'conversational agent' : 'procedural agent', id);
  return parsed.id;
}
