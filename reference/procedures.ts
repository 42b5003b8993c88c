/**
 * Procedures: after a conversation ends, one per `postprocess_agents` entry (the released version, or the named
 * one; deleted agents get none): `pending` → `running` → `success` (or `failed`), `skipped` when `filter_statuses`
 * excludes the conversation's status, `cancelled` when the agent is deleted while pending.
 */
import type { Procedure, ProcedureList, ProcedureListItem } from '../generated/src/types.gen.js';
import { versionId } from './agent-refs.js';
import type { AgentCatalog } from './agents.js';
import type { EventBus } from './bus/types.js';
import { type Clock, isoNow } from './clock.js';
import { notFound, ServiceError } from './errors.js';
import { newId } from './ids.js';
import type { Locks } from './keyed-queue.js';
import { decodeCursor, pageLimit, toPage } from './lists.js';
import { procedureOutput } from './procedure-output.js';
import type { ConversationRuntime } from './runtime.js';
import type { ConversationRecord, ProcedureRecord } from './store/records.js';
import type { Store, TimeRange } from './store/types.js';
import type { TimerGroup } from './timers.js';
import { summarize, type TranscriptTurn, transcriptOf } from './transcript.js';

/** Milliseconds from `pending` to `running`, and from `running` to the end. */
export const PROCEDURE_STEP_MS = 1000;

/** A prompt containing this makes the procedure fail (to try error handling). */
export const FAIL_TRIGGER = '/fail';

/** The custom field a successful procedure sets on its conversation, to the procedural agent's name. */
export const PROCESSED_BY_FIELD = 'processed_by';

/** What `list` filters on (already validated and normalised to ISO 8601 UTC). */
export interface ProcedureFilter {
  readonly agent_id?: string | undefined;
  readonly conversation_id?: string | undefined;
  readonly created_at_gte?: string | undefined;
  readonly created_at_lt?: string | undefined;
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
}

/** What the runner needs. */
export interface ProcedureDeps {
  readonly store: Store;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly queue: Locks;
  readonly timers: TimerGroup;
  readonly procedural: AgentCatalog<'procedural'>;
  readonly runtime: ConversationRuntime;
}

/** Creates, runs, lists and reads procedures. */
export class ProcedureRunner {
  constructor(private readonly deps: ProcedureDeps) {}

  /** Creates the conversation's procedures; call once, right after the end (`ConversationRuntime.onEnded`). */
  async onConversationEnded(conversation: ConversationRecord): Promise<void> {
    const transcript = transcriptOf((await this.deps.bus.read(conversation.id)) ?? []);
    for (const ref of conversation.postprocess_agents) {
      const resolved = await this.deps.procedural.resolveForUse(conversation.org, ref).catch((error: unknown) => {
        if (error instanceof ServiceError) return undefined;
        throw error;
      });
      if (resolved === undefined) continue;
      const { agent, version } = resolved;
      const filter = version.config.filter_statuses ?? [];
      const skipped = filter.length > 0 && !filter.includes(conversation.status);
      const procedure: ProcedureRecord = {
        id: newId('proc'),
        org: conversation.org,
        config: version.config,
        livemode: conversation.livemode,
        name: version.name,
        conversation_id: conversation.id,
        created_at: isoNow(this.deps.clock),
        status: skipped ? 'skipped' : 'pending',
        agent_id: agent.id,
        agent_version_id: versionId(agent.id, version.number),
        error: null,
        input: {
          conversation_id: conversation.id,
          status: conversation.status,
          transcript,
        } as unknown as Procedure['input'],
        output: null,
        summary: null,
      };
      await this.deps.store.procedures.put(procedure);
      if (!skipped)
        await this.deps.timers.set(timerName(procedure.id), PROCEDURE_STEP_MS, () => this.step(procedure.id));
    }
  }

  /** Cancels the pending procedures of a procedural agent that is being deleted. */
  async cancelPending(org: string, agentId: string): Promise<void> {
    const pending = await this.deps.store.procedures.list({
      where: { org, agent_id: agentId, status: 'pending' },
      order: 'asc',
    });
    for (const { id } of pending) {
      const cancelled = await this.update(id, (procedure) => {
        if (procedure.status !== 'pending') return false;
        procedure.status = 'cancelled';
        return true;
      });
      if (cancelled) await this.deps.timers.cancelPrefix(timerName(id));
    }
  }

  /** `GET /procedures/{procedure_id}`. */
  async get(org: string, id: string): Promise<Procedure> {
    const record = await this.deps.store.procedures.get(id);
    if (record === undefined || record.org !== org) throw notFound('procedure', id);
    return toProcedure(record);
  }

  /** `GET /procedures`: newest first, filtered, one page. */
  async list(org: string, filter: ProcedureFilter): Promise<ProcedureList> {
    const limit = pageLimit(filter.limit);
    const ranges: TimeRange<ProcedureRecord>[] = [
      { field: 'created_at', gte: filter.created_at_gte, lt: filter.created_at_lt },
    ];
    const fetched = await this.deps.store.procedures.list({
      where: {
        org,
        ...(filter.agent_id === undefined ? {} : { agent_id: filter.agent_id }),
        ...(filter.conversation_id === undefined ? {} : { conversation_id: filter.conversation_id }),
      },
      ranges,
      order: 'desc',
      ...(filter.cursor === undefined ? {} : { after: decodeCursor(filter.cursor) }),
      limit: limit + 1,
    });
    const { items, cursor } = toPage(fetched, limit);
    return { page: items.map(toProcedureListItem), cursor };
  }

  /** What the step timer of procedure `id` runs (a timer resumed from its row). */
  timerTask(id: string): () => Promise<void> {
    return () => this.step(id);
  }

  /**
   * One move: `pending` → `running` (and schedules the next), or `running` → `success` / `failed`. Run again after a
   * success (its claimer died before the timer's row was deleted), it only sets the conversation's field again.
   */
  private async step(id: string): Promise<void> {
    let started = false;
    let finished: ProcedureRecord | undefined;
    await this.update(id, (procedure) => {
      if (procedure.status === 'pending') {
        procedure.status = 'running';
        started = true;
        return true;
      }
      if (procedure.status === 'success') finished = procedure;
      if (procedure.status !== 'running') return false;
      this.finish(procedure);
      finished = procedure;
      return true;
    });
    if (started) await this.deps.timers.set(timerName(id), PROCEDURE_STEP_MS, () => this.step(id));
    if (finished?.status === 'success') {
      const { conversation_id: conversationId, name } = finished;
      await this.deps.runtime.use(conversationId, (live) => live.setCustomField(PROCESSED_BY_FIELD, name));
    }
  }

  /** `failed` when the prompt asks for it, else `success` with a summary and an output. */
  private finish(procedure: ProcedureRecord): void {
    if (procedure.config.runtime.prompt.text.includes(FAIL_TRIGGER)) {
      procedure.status = 'failed';
      procedure.error = `The procedure failed because its prompt contains ${FAIL_TRIGGER}.`;
      return;
    }
    const input = procedure.input as { transcript?: TranscriptTurn[] } | null;
    const summary = summarize(input?.transcript ?? []);
    procedure.status = 'success';
    procedure.summary = summary;
    const schema = procedure.config.output?.output_schema ?? null;
    procedure.output = procedureOutput(schema, summary) as unknown as Procedure['output'];
  }

  /**
   * Applies `change` to a copy of the stored procedure, and saves the copy when `change` returns true; true when
   * it was saved.
   */
  private update(id: string, change: (procedure: ProcedureRecord) => boolean): Promise<boolean> {
    return this.deps.queue.run(`procedure:${id}`, async () => {
      const stored = await this.deps.store.procedures.get(id);
      if (stored === undefined) return false;
      const procedure = { ...stored };
      if (!change(procedure)) return false;
      await this.deps.store.procedures.put(procedure);
      return true;
    });
  }
}

/** The name of a procedure's step timer. */
export function timerName(id: string): string {
  return `${PROCEDURE_TIMER}${id}`;
}

/** The prefix of the names of procedures' step timers. */
export const PROCEDURE_TIMER = 'procedure:';

/** The full record, without the organisation and configuration. */
export function toProcedure(record: ProcedureRecord): Procedure {
  const { org: _org, config: _config, ...procedure } = record;
  return procedure;
}

/** The list item shape. */
export function toProcedureListItem(record: ProcedureRecord): ProcedureListItem {
  const { id, livemode, name, conversation_id, agent_id, created_at, status, output, error } = record;
  return { id, livemode, name, conversation_id, agent_id, created_at, status, output, error };
}
