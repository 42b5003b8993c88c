/** The records the service stores: the API shapes plus what only the service needs (organisation, state). */
import type {
  Conversation,
  ConversationalAgentConfig,
  Customer,
  ProceduralAgentConfig,
  Procedure,
  ServerEventPayload,
} from '../../generated/src/types.gen.js';

/** The two kinds of agent; both are versioned the same way. */
export type AgentKind = 'conversational' | 'procedural';

/** The configuration each kind of agent carries. */
export interface AgentConfigOf {
  conversational: ConversationalAgentConfig;
  procedural: ProceduralAgentConfig;
}

/** One version of an agent, `<id>@v<number>`. */
export interface AgentVersionRecord<K extends AgentKind> {
  readonly number: number;
  name: string;
  description: string;
  config: AgentConfigOf[K];
  /** Procedural agents run after each conversation (conversational agents only; empty for procedural ones). */
  postprocess_agents: string[];
  readonly created_at: string;
  updated_at: string;
  /** Once released a version is frozen, even after a rollback to an older one. */
  ever_released: boolean;
}

/** An agent with all its versions, oldest first. */
export interface AgentRecord<K extends AgentKind> {
  readonly id: string;
  readonly org: string;
  readonly kind: K;
  readonly created_at: string;
  updated_at: string;
  deleted: boolean;
  /** The number of the released version, or null when none is. */
  released: number | null;
  versions: AgentVersionRecord<K>[];
}

/** A conversation: the API record plus its organisation, context, effective configuration and current token. */
export interface ConversationRecord extends Conversation {
  readonly org: string;
  /** Free-form context: the create body's `context`, then every injection merged in. */
  context: Record<string, unknown>;
  /** The agent version's configuration with `override_config` merged in. */
  readonly config: ConversationalAgentConfig;
  /** The agent version's `postprocess_agents`, as they were when the conversation was created. */
  readonly postprocess_agents: readonly string[];
  /** The id (SHA-256) of the one active token. */
  token: string;
  /**
   * Events held while the conversation is `queued` (context injected before the start), emitted with these ids
   * right after `conversation.started`, so that nothing comes between `conversation.setup` and it.
   */
  readonly held_events?: readonly HeldEvent[];
}

/** An event whose id is given out before it is emitted. */
export interface HeldEvent {
  readonly id: string;
  readonly payload: ServerEventPayload;
}

/** An ephemeral conversation token; `id` is the token's SHA-256 (the token itself is never stored). */
export interface TokenRecord {
  readonly id: string;
  readonly created_at: string;
  readonly org: string;
  readonly conversation_id: string;
  readonly expires_at: string;
  /** Set by a refresh: the token then fails at once with `token_expired`. */
  replaced: boolean;
}

/** A procedure: the API record plus its organisation and the configuration of the agent version it runs. */
export interface ProcedureRecord extends Procedure {
  readonly org: string;
  readonly config: ProceduralAgentConfig;
}

/** A customer (the API record already names its organisation). */
export type CustomerRecord = Customer;
