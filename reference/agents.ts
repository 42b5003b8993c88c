/**
 * Versioned agents, both kinds (DECISIONS.md, "Versions"): create releases `@v1`; PUT updates a draft target in
 * place or copies a released/older target into a new draft `@v<latest+1>`; release (or roll back) any version;
 * released versions never change; delete hides the agent and every version.
 */
import type { AgentWriteResponse } from '../generated/src/types.gen.js';
import { type AgentPrefix, parseAgentRef, versionId } from './agent-refs.js';
import { type Clock, isoNow } from './clock.js';
import { notFound, serviceError } from './errors.js';
import { newId } from './ids.js';
import type { Locks } from './keyed-queue.js';
import type { AgentConfigOf, AgentKind, AgentRecord, AgentVersionRecord } from './store/records.js';
import type { Collection } from './store/types.js';

/** The members of a create body. */
export interface AgentInput<K extends AgentKind> {
  readonly name: string;
  readonly description?: string | undefined;
  readonly config: AgentConfigOf[K];
  readonly postprocess_agents?: readonly string[] | undefined;
}

/** The members of a PUT body: absent or null keeps the value; `config` replaces the whole configuration. */
export interface AgentPatch<K extends AgentKind> {
  readonly name?: string | null | undefined;
  readonly description?: string | null | undefined;
  readonly config?: AgentConfigOf[K] | null | undefined;
  readonly postprocess_agents?: readonly string[] | null | undefined;
}

/** What differs between the two kinds. */
export interface AgentKindRules<K extends AgentKind> {
  readonly kind: K;
  readonly prefix: AgentPrefix;
  /** Used in messages: `conversational agent`, `procedural agent`. */
  readonly label: string;
  readonly collection: Collection<AgentRecord<K>>;
  /** Fills the spec's defaults in. */
  normalize(config: AgentConfigOf[K]): AgentConfigOf[K];
  /**
   * Throws a `ServiceError` when the version may not be saved (e.g. 400 `language_not_supported`); `sent` is the
   * request's body, so that what it did not send (a member kept from the version it copies) is not held against it.
   */
  check(org: string, version: AgentVersionRecord<K>, sent: AgentPatch<K>): Promise<void>;
}

/** An agent with one of its versions. */
export interface AgentVersionView<K extends AgentKind> {
  readonly agent: AgentRecord<K>;
  readonly version: AgentVersionRecord<K>;
}

/** The agents of one kind. */
export class AgentCatalog<K extends AgentKind> {
  constructor(
    private readonly rules: AgentKindRules<K>,
    private readonly clock: Clock,
    private readonly queue: Locks,
  ) {}

  /** Creates the agent with `@v1`, released at once. */
  async create(org: string, input: AgentInput<K>): Promise<AgentWriteResponse> {
    const now = isoNow(this.clock);
    const version: AgentVersionRecord<K> = {
      number: 1,
      name: input.name,
      description: input.description ?? '',
      config: this.rules.normalize(input.config),
      postprocess_agents: [...(input.postprocess_agents ?? [])],
      created_at: now,
      updated_at: now,
      ever_released: true,
    };
    await this.rules.check(org, version, input);
    const id = newId(this.rules.prefix);
    const agent: AgentRecord<K> = {
      id,
      org,
      kind: this.rules.kind,
      created_at: now,
      updated_at: now,
      deleted: false,
      released: 1,
      versions: [version],
    };
    await this.rules.collection.put(agent);
    return { id, version_id: versionId(id, 1) };
  }

  /** The PUT rule: a draft target changes in place, anything else is copied into a new draft. */
  async update(org: string, ref: string, patch: AgentPatch<K>): Promise<AgentWriteResponse> {
    const parsed = this.parse(ref);
    return this.queue.run(`agent:${parsed.id}`, async () => {
      const { agent, version: target } = await this.find(org, ref);
      const now = isoNow(this.clock);
      const isDraft = !target.ever_released;
      const latest = agent.versions[agent.versions.length - 1]?.number ?? 0;
      const draft: AgentVersionRecord<K> = isDraft
        ? { ...target }
        : { ...target, number: latest + 1, created_at: now, ever_released: false };
      if (patch.name != null) draft.name = patch.name;
      if (patch.description != null) draft.description = patch.description;
      if (patch.config != null) draft.config = this.rules.normalize(patch.config);
      if (patch.postprocess_agents != null) draft.postprocess_agents = [...patch.postprocess_agents];
      draft.updated_at = now;
      await this.rules.check(org, draft, patch);
      const versions = isDraft ? replaced(agent.versions, target, draft) : [...agent.versions, draft];
      await this.rules.collection.put({ ...agent, versions, updated_at: now });
      return { id: agent.id, version_id: versionId(agent.id, draft.number) };
    });
  }

  /** Makes `<id>@v<n>` the released version (a rollback when it is older); the path takes a version id only. */
  async release(org: string, ref: string): Promise<AgentWriteResponse> {
    const parsed = this.parse(ref);
    if (parsed.version === null) throw notFound(this.rules.label, ref);
    return this.queue.run(`agent:${parsed.id}`, async () => {
      const { agent, version } = await this.find(org, ref);
      if (agent.released !== version.number) {
        const versions = replaced(agent.versions, version, { ...version, ever_released: true });
        await this.rules.collection.put({
          ...agent,
          released: version.number,
          versions,
          updated_at: isoNow(this.clock),
        });
      }
      return { id: agent.id, version_id: versionId(agent.id, version.number) };
    });
  }

  /** `<id>` is the latest version, `<id>@v<n>` that version; 404 when either does not exist. */
  async find(org: string, ref: string): Promise<AgentVersionView<K>> {
    const parsed = this.parse(ref);
    const agent = await this.agent(org, parsed.id, ref);
    const version =
      parsed.version === null
        ? agent.versions[agent.versions.length - 1]
        : agent.versions.find((v) => v.number === parsed.version);
    if (version === undefined) throw notFound(this.rules.label, ref);
    return { agent, version };
  }

  /**
   * The version a conversation or procedure uses: `<id>` the released one (400 `agent_not_released` when none
   * is), `<id>@v<n>` that one, draft or not.
   */
  async resolveForUse(org: string, ref: string): Promise<AgentVersionView<K>> {
    const parsed = this.parse(ref);
    if (parsed.version !== null) return this.find(org, ref);
    const agent = await this.agent(org, parsed.id, ref);
    const version = agent.versions.find((v) => v.number === agent.released);
    if (version === undefined) throw serviceError('agent_not_released', `${ref} has no released version.`);
    return { agent, version };
  }

  /** The agent record; 404 when it does not exist, is deleted or belongs to another organisation. */
  async agent(org: string, id: string, shownAs = id): Promise<AgentRecord<K>> {
    const agent = await this.rules.collection.get(id);
    if (agent === undefined || agent.org !== org || agent.deleted) throw notFound(this.rules.label, shownAs);
    return agent;
  }

  /** The organisation's agents that are not deleted, oldest first. */
  async list(org: string): Promise<AgentRecord<K>[]> {
    return this.rules.collection.list({ where: { org, deleted: false }, order: 'asc' });
  }

  /** Deletes the agent: every later request on it answers 404. */
  async delete(org: string, id: string): Promise<void> {
    const parsed = this.parse(id);
    if (parsed.version !== null) throw notFound(this.rules.label, id);
    await this.queue.run(`agent:${parsed.id}`, async () => {
      const agent = await this.agent(org, parsed.id);
      await this.rules.collection.put({ ...agent, deleted: true, updated_at: isoNow(this.clock) });
    });
  }

  private parse(ref: string): { id: string; version: number | null } {
    const parsed = parseAgentRef(ref, this.rules.prefix);
    if (parsed === null) throw notFound(this.rules.label, ref);
    return parsed;
  }
}

/** `versions` with `old` replaced by `fresh` (stored records are frozen: changes are copies). */
function replaced<V>(versions: readonly V[], old: V, fresh: V): V[] {
  return versions.map((version) => (version === old ? fresh : version));
}
