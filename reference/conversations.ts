/**
 * Conversations over REST: create (agent resolution, `override_config` merge, token, customer, setup event, phone
 * progress), read, list (filters, stable cursors), context injection and token refresh.
 */
import type {
  ContextData,
  Conversation,
  ConversationalAgentConfigOverride,
  ConversationChannel,
  ConversationList,
  ConversationToken,
  CreateConversationRequest,
  CreateConversationResponse,
  InjectContextResponse,
  ServerEvent,
} from '../generated/src/types.gen.js';
import { versionId } from './agent-refs.js';
import type { AgentCatalog } from './agents.js';
import { type Clock, isoNow } from './clock.js';
import { checkConfigSchema, checkLanguage } from './config-checks.js';
import { toConversation, toConversationListItem, toCreateResponse } from './conversation-views.js';
import type { CustomerDirectory } from './customers.js';
import { withConversationalDefaults } from './defaults.js';
import { notFound, type ServiceError, serviceError } from './errors.js';
import { viewPerRecord } from './freeze.js';
import { newId } from './ids.js';
import { decodeCursor, pageLimit, timeFilter, toPage } from './lists.js';
import { deepMerge, isPlainObject } from './merge.js';
import { startPhoneCall } from './phone.js';
import { type ConversationRuntime, isEnded } from './runtime.js';
import type { ScriptedAgent } from './scripted-agent.js';
import type { ConversationRecord } from './store/records.js';
import type { Store } from './store/types.js';
import type { TokenService } from './tokens.js';

/** `GET /conversations/{conversation_id}`: each record's view built once (see `viewPerRecord`). */
const conversationView = viewPerRecord(toConversation);

/** The create body as it may arrive: the members with a default may be absent. */
export type CreateConversationInput = Omit<CreateConversationRequest, 'livemode'> & { readonly livemode?: boolean };

/** The list query, as it may arrive. */
export interface ConversationFilter {
  readonly created_at_gte?: string | undefined;
  readonly created_at_lt?: string | undefined;
  readonly completed_at_gte?: string | undefined;
  readonly completed_at_lt?: string | undefined;
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
}

/**
 * Called with each `conversation.setup` event (the webhook); resolves once its delivery is durable, before the
 * creation is answered.
 */
export type SetupListener = (event: ServerEvent, org: string) => Promise<void>;

/** What the conversation service needs. */
export interface ConversationDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly runtime: ConversationRuntime;
  readonly agent: ScriptedAgent;
  readonly conversational: AgentCatalog<'conversational'>;
  readonly customers: CustomerDirectory;
  readonly tokens: TokenService;
  /** How long events stay readable after the end (the refresh window too). */
  readonly retentionMs: number;
  readonly onSetup?: SetupListener;
}

/** The REST side of conversations. */
export class ConversationService {
  constructor(private readonly deps: ConversationDeps) {}

  /** `POST /conversations`; `baseUrl` is where this server is reached (for `events_url` and `session_url`). */
  async create(org: string, input: CreateConversationInput, baseUrl: string): Promise<CreateConversationResponse> {
    const { deps } = this;
    const { agent, version } = await deps.conversational.resolveForUse(org, input.agent_id);
    const override = input.override_config;
    const merged = deepMerge(version.config, override);
    checkConfigSchema(merged, '/override_config');
    const config = withConversationalDefaults(merged);
    checkLanguage(config);
    const id = newId('conv');
    const token = await deps.tokens.issue(org, id);
    const channel = toChannel(input.channel);
    const customer =
      channel.type === 'phone' && channel.callee_no !== null
        ? await deps.customers.identify(org, channel.callee_no)
        : null;
    const record: ConversationRecord = {
      id,
      org,
      agent_id: versionId(agent.id, version.number),
      livemode: input.livemode ?? true,
      created_at: isoNow(deps.clock),
      direction: channel.type === 'phone' ? 'outbound' : 'inbound',
      status: 'queued',
      custom_fields: {},
      customer_id: customer?.id ?? null,
      channel_type: channel.type,
      channel,
      override_config: override === undefined ? null : (structuredClone(override) as ConversationalAgentConfigOverride),
      started_at: null,
      completed_at: null,
      failure_reason: null,
      summary: null,
      duration_sec: null,
      sentiment: null,
      context: isPlainObject(input.context) ? structuredClone(input.context) : {},
      config,
      postprocess_agents: [...version.postprocess_agents],
      token: token.record.id,
    };
    await deps.store.conversations.put(record);
    await deps.runtime.use(id, async (live) => {
      const setup = await live.emit({
        type: 'conversation.setup',
        channel: setupChannel(channel),
        direction: record.direction,
      });
      await deps.onSetup?.(setup, org);
      if (channel.type === 'phone') startPhoneCall(live, deps.agent);
    });
    return toCreateResponse(record, token.token, baseUrl);
  }

  /** `GET /conversations/{conversation_id}`. */
  async get(org: string, id: string): Promise<Conversation> {
    return conversationView(await this.record(org, id));
  }

  /** The stored record; 404 for an unknown id or another organisation's conversation. */
  async record(org: string, id: string): Promise<ConversationRecord> {
    const record = await this.deps.store.conversations.get(id);
    if (record === undefined || record.org !== org) throw notFound('conversation', id);
    return record;
  }

  /** `GET /conversations`: newest first, filtered, one page. */
  async list(org: string, filter: ConversationFilter): Promise<ConversationList> {
    const limit = pageLimit(filter.limit);
    const fetched = await this.deps.store.conversations.list({
      where: { org },
      ranges: [
        {
          field: 'created_at',
          gte: timeFilter(filter.created_at_gte, 'created_at_gte'),
          lt: timeFilter(filter.created_at_lt, 'created_at_lt'),
        },
        ...(filter.completed_at_gte === undefined && filter.completed_at_lt === undefined
          ? []
          : [
              {
                field: 'completed_at' as const,
                gte: timeFilter(filter.completed_at_gte, 'completed_at_gte'),
                lt: timeFilter(filter.completed_at_lt, 'completed_at_lt'),
              },
            ]),
      ],
      order: 'desc',
      ...(filter.cursor === undefined ? {} : { after: decodeCursor(filter.cursor) }),
      limit: limit + 1,
    });
    const { items, cursor } = toPage(fetched, limit);
    return { data: items.map(toConversationListItem), cursor };
  }

  /** `POST /conversations/{conversation_id}/context`; 409 `conversation_ended` after the end. */
  injectContext(org: string, id: string, data: ContextData, triggerResponse = false): Promise<InjectContextResponse> {
    return this.deps.runtime.use(
      id,
      async (live) => {
        if (live.ended)
          throw serviceError('conversation_ended', `Conversation ${id} has ended; it takes no more context.`);
        const eventId = await live.mergeContext(data, triggerResponse);
        await this.deps.agent.contextUpdated(live, data, triggerResponse);
        return {
          conversation_id: id,
          event_id: eventId,
          context: live.record.context as InjectContextResponse['context'],
        };
      },
      org,
    );
  }

  /** `POST /conversations/{conversation_id}/token/refresh`; 404 `event_stream_expired` once the events are gone. */
  refreshToken(org: string, id: string): Promise<ConversationToken> {
    return this.deps.runtime.use(
      id,
      async (live) => {
        if (this.expired(live.record)) throw expiredError(id);
        const { answer, id: tokenId } = await this.deps.tokens.refresh(live.record);
        await live.update({ token: tokenId });
        return answer;
      },
      org,
    );
  }

  /** True once the retention window after the end has passed. */
  expired(record: ConversationRecord): boolean {
    if (!isEnded(record) || record.completed_at === null) return false;
    return Date.parse(record.completed_at) + this.deps.retentionMs <= this.deps.clock.now();
  }
}

/** 404 `event_stream_expired`. */
export function expiredError(id: string): ServiceError {
  return serviceError('event_stream_expired', `The events of conversation ${id} are no longer retained.`);
}

function toChannel(channel: CreateConversationRequest['channel']): ConversationChannel {
  if (channel.type === 'phone') {
    return { type: 'phone', callee_no: channel.callee_no, caller_no: channel.caller_no ?? null, recording_url: null };
  }
  return { type: channel.type };
}

function setupChannel(channel: ConversationChannel) {
  return channel.type === 'phone'
    ? { type: channel.type, callee_no: channel.callee_no, caller_no: channel.caller_no, recording_url: null }
    : { type: channel.type };
}
