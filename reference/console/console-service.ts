/**
 * The console's server side: lists, creates and opens conversations through the service facade, as a `write` key
 * of the first configured organisation, and keeps the tokens of the conversations it created or opened.
 */
import type { KeyPrincipal } from '../auth.js';
import { ServiceError } from '../errors.js';
import type { ReferenceService } from '../service.js';
import { CONSOLE_AGENT } from './agent.js';
import type { ConsoleConversation, ConsoleConversationList, ConsoleOpened } from './types.js';

/** How many conversations the list shows (the newest). */
export const CONSOLE_LIST_LIMIT = 50;
/** How many tokens the console remembers; the oldest are forgotten first. */
export const MAX_KEPT_TOKENS = 500;

/** The console's view of the service. */
export class ConsoleService {
  readonly principal: KeyPrincipal;
  #agentId: Promise<string> | undefined;
  readonly #tokens = new Map<string, string>();

  constructor(
    private readonly service: ReferenceService,
    readonly org: string,
  ) {
    this.principal = { kind: 'key', org, scope: 'write' };
  }

  /** The newest conversations of the organisation, newest first. */
  async list(): Promise<ConsoleConversationList> {
    const page = await this.service.listConversations(this.principal, {}, { limit: CONSOLE_LIST_LIMIT });
    return { org: this.org, data: page.data.map((item) => this.view(item)) };
  }

  /** Starts a `chat_realtime` conversation with the console agent (created on first use). */
  async create(baseUrl: string): Promise<ConsoleOpened> {
    const agentId = await this.agentId();
    const created = await this.service.createConversation(
      this.principal,
      {},
      {},
      { agent_id: agentId, channel: { type: 'chat_realtime' } },
      { baseUrl },
    );
    this.keep(created.id, created.channel.token);
    return this.open(created.id);
  }

  /**
   * A conversation with a token for its stream and session: the one the console holds while it is valid, else a
   * refreshed one (which replaces the conversation's previous token).
   */
  async open(id: string): Promise<ConsoleOpened> {
    const conversation = await this.service.getConversation(this.principal, { conversation_id: id });
    let token = this.#tokens.get(id);
    if (token === undefined || !(await this.isValid(token))) {
      token = (await this.service.refreshConversationToken(this.principal, { conversation_id: id })).token;
      this.keep(id, token);
    }
    return {
      ...this.view({
        id: conversation.id,
        status: conversation.status,
        channel_type: conversation.channel_type,
        created_at: conversation.created_at,
      }),
      own: true,
      token,
    };
  }

  private view(item: Omit<ConsoleConversation, 'own'>): ConsoleConversation {
    const { id, status, channel_type, created_at } = item;
    return { id, status, channel_type, created_at, own: this.#tokens.has(id) };
  }

  private async isValid(token: string): Promise<boolean> {
    try {
      await this.service.authenticate({ token });
      return true;
    } catch (error) {
      if (error instanceof ServiceError && error.status === 401) return false;
      throw error;
    }
  }

  private keep(id: string, token: string): void {
    this.#tokens.delete(id);
    this.#tokens.set(id, token);
    for (const oldest of this.#tokens.keys()) {
      if (this.#tokens.size <= MAX_KEPT_TOKENS) break;
      this.#tokens.delete(oldest);
    }
  }

  /** The console agent's id; created once, again after a failed attempt. */
  private agentId(): Promise<string> {
    this.#agentId ??= this.service.createConversationalAgent(this.principal, {}, {}, CONSOLE_AGENT).then(
      (agent) => agent.id,
      (error: unknown) => {
        this.#agentId = undefined;
        throw error;
      },
    );
    return this.#agentId;
  }
}
