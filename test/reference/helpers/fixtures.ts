/** Shared fixtures of the reference-service tests: a service on a fake clock, callers, agent configurations. */
import { afterEach, expect } from 'vitest';
import type {
  ConversationalAgentConfig,
  CreateConversationRequest,
  ProceduralAgentConfig,
  ServerEvent,
} from '../../../generated/src/types.gen.js';
import {
  type Validator,
  validateAgentVersionList,
  validateAgentWriteResponse,
  validateConversation,
  validateConversationalAgent,
  validateConversationList,
  validateConversationToken,
  validateCreateConversationResponse,
  validateCustomer,
  validateDeletedResponse,
  validateInjectContextResponse,
  validateProceduralAgent,
  validateProceduralAgentList,
  validateProcedure,
  validateProcedureList,
  validateServerErrorEvent,
  validateServerEvent,
} from '../../../generated/src/validators.gen.js';
import type { KeyPrincipal, Principal } from '../../../reference/auth.js';
import { DATABASE_EVENT_LIMITS } from '../../../reference/bus/memory.js';
import { FakeClock } from '../../../reference/clock.js';
import { ReferenceService, type ReferenceServiceOptions } from '../../../reference/service.js';
import type { FacadeOperationId } from '../../../reference/service-types.js';
import { databaseState } from '../../../reference/state.js';
import { useFileDatabase } from './file-database.js';

/** The database of this test file's services (none in memory): see `useFileDatabase`. */
const fileDatabase = useFileDatabase();

/** The schema of each facade method's answer: every answer in these tests is checked against it. */
const ANSWER_VALIDATORS: Readonly<Record<FacadeOperationId, Validator<unknown>>> = {
  createConversationalAgent: validateAgentWriteResponse,
  updateConversationalAgent: validateAgentWriteResponse,
  getConversationalAgent: validateConversationalAgent,
  listConversationalAgentVersions: validateAgentVersionList,
  releaseConversationalAgent: validateAgentWriteResponse,
  createProceduralAgent: validateAgentWriteResponse,
  listProceduralAgents: validateProceduralAgentList,
  getProceduralAgent: validateProceduralAgent,
  updateProceduralAgent: validateAgentWriteResponse,
  deleteProceduralAgent: validateDeletedResponse,
  listProceduralAgentVersions: validateAgentVersionList,
  releaseProceduralAgent: validateAgentWriteResponse,
  createConversation: validateCreateConversationResponse,
  listConversations: validateConversationList,
  getConversation: validateConversation,
  injectConversationContext: validateInjectContextResponse,
  refreshConversationToken: validateConversationToken,
  getCustomer: validateCustomer,
  listProcedures: validateProcedureList,
  getProcedure: validateProcedure,
};

/** The service with every facade answer and every `server.error` of a frame checked against the spec. */
function validating(service: ReferenceService): ReferenceService {
  return new Proxy(service, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      const validator = ANSWER_VALIDATORS[property as FacadeOperationId] as Validator<unknown> | undefined;
      if (validator !== undefined) {
        return async (...args: unknown[]) => {
          const answer = await method.apply(target, args);
          expectValid(validator, answer);
          return answer;
        };
      }
      if (property === 'handleClientFrame') {
        return async (...args: unknown[]) => {
          const answer = await method.apply(target, args);
          if (answer !== null) expectValid(validateServerErrorEvent, answer);
          return answer;
        };
      }
      return method.bind(target);
    },
  });
}

/** The base URL passed to `createConversation` in tests. */
export const BASE_URL = 'http://127.0.0.1:4010';

/**
 * A service on a fake clock with three keys (`write` and `read` of org_a, `other` of org_b) whose every answer is
 * validated against the spec.
 */
export interface TestService {
  readonly service: ReferenceService;
  readonly clock: FakeClock;
  readonly writer: KeyPrincipal;
  readonly reader: KeyPrincipal;
  readonly stranger: KeyPrincipal;
  readonly errors: unknown[];
  /** Resolves once the service follows the notices of other processes on its database (PostgreSQL); in memory at once. */
  readonly ready: Promise<void>;
}

/**
 * After each test, closes the service `current()` returns (the test file's `t`) and expects no error of its
 * background work.
 */
export function closeServiceAfterEach(current: () => TestService | undefined): void {
  afterEach(() => {
    const t = current();
    t?.service.close();
    expect(t?.errors ?? [], 'errors of background work').toEqual([]);
  });
}

/** Builds a `TestService`; `settings` override the defaults. Close it with `service.close()`. */
export function makeService(settings: Partial<ReferenceServiceOptions['settings']> = {}): TestService {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const db = fileDatabase();
  const state = db === null ? null : databaseState(db, settings.eventLimits ?? DATABASE_EVENT_LIMITS);
  const service = validating(
    new ReferenceService({
      ...state?.service,
      settings: {
        apiKeys: [
          { key: 'key_write', org: 'org_a', scope: 'write' },
          { key: 'key_read', org: 'org_a', scope: 'read' },
          { key: 'key_other', org: 'org_b', scope: 'write' },
        ],
        ...settings,
      },
      clock,
      onError: (error) => errors.push(error),
    }),
  );
  return {
    service,
    clock,
    writer: { kind: 'key', org: 'org_a', scope: 'write' },
    reader: { kind: 'key', org: 'org_a', scope: 'read' },
    stranger: { kind: 'key', org: 'org_b', scope: 'write' },
    errors,
    ready: listening(state, service, errors),
  };
}

/** Starts following what other processes notify, as `casi serve` does; a failure is one of the service's errors. */
function listening(
  state: { listen(): Promise<void> } | null,
  service: ReferenceService,
  errors: unknown[],
): Promise<void> {
  if (state === null) return Promise.resolve();
  return state
    .listen()
    .then(() => service.listen())
    .catch((error: unknown) => {
      errors.push(error);
    });
}

/** A minimal valid conversational configuration, as a client may send it (defaulted members omitted). */
export function agentConfig(
  patch: Partial<Record<keyof ConversationalAgentConfig, unknown>> = {},
): ConversationalAgentConfig {
  return {
    personas: [{ name: 'Ava', voice: { id: 'Female 1' } }],
    voice: { boosted_keywords: [] },
    runtime: { model: 'provider_a/gpt-4o', prompt: { text: 'You are helpful.' }, variables: [] },
    tool: { tools: [], transfers: [] },
    language: { default_language: 'English', supported_languages: ['English', 'Spanish'] },
    channel: { is_voicemail_enabled: true },
    ...patch,
  } as ConversationalAgentConfig;
}

/** A minimal procedural configuration. */
export function proceduralConfig(patch: Partial<ProceduralAgentConfig> = {}): ProceduralAgentConfig {
  return { runtime: { prompt: { text: 'Summarise the conversation.' } }, ...patch } as ProceduralAgentConfig;
}

/** Creates a conversational agent (released `@v1`) and returns its id. */
export async function createAgent(
  t: TestService,
  config = agentConfig(),
  postprocess: string[] = [],
  auth: Principal = t.writer,
): Promise<string> {
  const body = { name: 'Agent', config, postprocess_agents: postprocess } as never;
  return (await t.service.createConversationalAgent(auth, {}, {}, body)).id;
}

/** Creates a procedural agent and returns its id. */
export async function createProcedural(
  t: TestService,
  name = 'Summariser',
  config = proceduralConfig(),
): Promise<string> {
  return (await t.service.createProceduralAgent(t.writer, {}, {}, { name, config } as never)).id;
}

/** Starts a conversation and returns the create answer. */
export function createConversation(
  t: TestService,
  agentId: string,
  channel: CreateConversationRequest['channel'] = { type: 'chat_realtime' },
  extra: Partial<CreateConversationRequest> = {},
  auth: Principal = t.writer,
) {
  const body = { agent_id: agentId, channel, ...extra } as CreateConversationRequest;
  return t.service.createConversation(auth, {}, {}, body, { baseUrl: BASE_URL });
}

/** Sends a client event over the session logic; returns the private `server.error`, if any. */
export function send(t: TestService, conversationId: string, event: unknown) {
  return t.service.handleClientFrame(conversationId, typeof event === 'string' ? event : JSON.stringify(event));
}

/** The conversation's whole log, every event checked against `ServerEvent`. */
export async function eventsOf(t: TestService, conversationId: string): Promise<ServerEvent[]> {
  const events = (await t.service.bus.read(conversationId)) ?? [];
  for (const event of events) expectValid(validateServerEvent, event);
  return events;
}

/** The payload types of the log, in order. */
export async function typesOf(t: TestService, conversationId: string): Promise<string[]> {
  return (await eventsOf(t, conversationId)).map((event) => event.payload.type);
}

/** Asserts that `value` is valid, showing the validator's issues when it is not. */
export function expectValid<T>(validator: Validator<T>, value: unknown): asserts value is T {
  const valid = validator(value);
  expect(valid ? null : { schema: validator.schemaName, issues: validator.errors, value }).toBeNull();
}

/** Awaits `promise` and returns the `ServiceError`-like rejection's `{status, code}`. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    const { status, code } = error as { status: number; code: string };
    return { status, code };
  }
  throw new Error('expected a rejection');
}
