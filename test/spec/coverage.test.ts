/**
 * Coverage of the source document (spec-source/000_fcb7852683b1551e.txt). The tables below are written by hand from
 * the source, never derived from the spec; each row is looked up in openapi.yaml by walking its schemas.
 */
import { describe, expect, it } from 'vitest';
import {
  escapePointer,
  getAt,
  isObject,
  type Json,
  type JsonObject,
  openapi,
  operations,
  parametersOf,
} from './load-specs.ts';
import {
  allowsNull,
  defaultsOf,
  enumValues,
  expand,
  propertiesOf,
  requiredOf,
  variantByTag,
  walk,
} from './schema-walk.ts';

// --- where things live ------------------------------------------------------------------------------------------

const operation = (method: string, path: string): string => `#/paths/${escapePointer(path)}/${method}`;
const requestBody = (method: string, path: string): string =>
  `${operation(method, path)}/requestBody/content/application~1json/schema`;
const response = (method: string, path: string, status = '200', media = 'application/json'): string =>
  `${operation(method, path)}/responses/${status}/content/${escapePointer(media)}/schema`;

const ROOT = {
  createAgent: requestBody('post', '/conversational_agents'),
  createAgentAnswer: response('post', '/conversational_agents'),
  updateAgent: requestBody('put', '/conversational_agents/{id}'),
  updateAgentAnswer: response('put', '/conversational_agents/{id}'),
  updateAgent400: response('put', '/conversational_agents/{id}', '400'),
  updateAgent404: response('put', '/conversational_agents/{id}', '404'),
  createProcedural: requestBody('post', '/procedural_agents'),
  createProceduralAnswer: response('post', '/procedural_agents'),
  listProcedural: response('get', '/procedural_agents'),
  updateProcedural: requestBody('put', '/procedural_agents/{id}'),
  updateProceduralAnswer: response('put', '/procedural_agents/{id}'),
  releaseProceduralAnswer: response('post', '/procedural_agents/{version_id}/release'),
  createConversation: requestBody('post', '/conversations'),
  createConversationAnswer: response('post', '/conversations'),
  listConversations: response('get', '/conversations'),
  getConversation: response('get', '/conversations/{conversation_id}'),
  injectContext: requestBody('post', '/conversations/{conversation_id}/context'),
  refreshToken: response('post', '/conversations/{conversation_id}/token/refresh'),
  eventStream: response('get', '/conversations/{conversation_id}/events', '200', 'text/event-stream'),
  listProcedures: response('get', '/procedures'),
  getProcedure: response('get', '/procedures/{procedure_id}'),
  getCustomer: response('get', '/customers/{customer_id}'),
  // Client events travel only on the WebSocket; their envelope is the component the AsyncAPI messages use.
  clientEvent: '#/components/schemas/ClientEvent',
} as const;

type RootName = keyof typeof ROOT;

/** A path step: a property name, `[]` for array items, or the variant of a union whose `tag` is `value`. */
type Step = string | { readonly tag: string; readonly value: string };

function stepLabel(step: Step): string {
  return typeof step === 'string' ? step : `(${step.tag}=${step.value})`;
}

/** The schemas at `steps` below a root; throws a message naming the missing part. */
function locate(root: RootName, steps: readonly Step[]): JsonObject[] {
  const pointer = ROOT[root];
  const start = getAt(openapi, pointer, false);
  if (start === undefined) throw new Error(`${root}: the spec has no schema at ${pointer}`);
  let current: Json[] = [start];
  let walked: Step[] = [];
  for (const step of steps) {
    const label = `${root}${walked.length > 0 ? `.${walked.map(stepLabel).join('.')}` : ''}`;
    current =
      typeof step === 'string' ? walk(current, [step], label) : [variantByTag(current, step.tag, step.value, label)];
    walked = [...walked, step];
  }
  return current.filter(isObject);
}

function at(root: RootName, steps: readonly Step[]): string {
  return [root, ...steps.map(stepLabel)].join('.');
}

// --- objects and their fields -----------------------------------------------------------------------------------

interface ObjectRow {
  /** What the source calls it, with its section. */
  readonly name: string;
  readonly root: RootName;
  readonly path: readonly Step[];
  readonly fields: readonly string[];
  /** The exact `required` set, where the source states it. */
  readonly required?: readonly string[];
  /** Members the source calls required (others may be required too). */
  readonly requiredIncludes?: readonly string[];
  /** Members the source calls optional (or gives a default): they must not be required. */
  readonly optional?: readonly string[];
  /** Members the source says may be null. */
  readonly nullable?: readonly string[];
  /** Members that must not exist. */
  readonly absent?: readonly string[];
  /** Defaults the source states. */
  readonly defaults?: Readonly<Record<string, Json>>;
  /** No member beyond `fields` (for event payloads, whose source tables list every field). */
  readonly exact?: boolean;
}

const CONFIG: Step[] = ['config'];
const PERSONA: Step[] = [...CONFIG, 'personas', '[]'];
const PROMPT: Step[] = [...CONFIG, 'runtime', 'prompt'];
const TOOLS: Step[] = [...CONFIG, 'tool', 'tools', '[]'];

const CONVERSATION_FIELDS = [
  'id',
  'agent_id',
  'livemode',
  'created_at',
  'direction',
  'status',
  'custom_fields',
  'customer_id',
  'channel_type',
  'channel',
  'override_config',
  'started_at',
  'completed_at',
  'failure_reason',
  'summary',
  'duration_sec',
  'sentiment',
];
const CONVERSATION_LIST_FIELDS = [
  'id',
  'agent_id',
  'livemode',
  'created_at',
  'direction',
  'status',
  'custom_fields',
  'customer_id',
  'channel_type',
  'started_at',
  'completed_at',
  'failure_reason',
  'duration_sec',
  'sentiment',
];
const CONVERSATION_NULLABLE = [
  'customer_id',
  'channel_type',
  'started_at',
  'completed_at',
  'failure_reason',
  'duration_sec',
  'sentiment',
];
const CUSTOMER_NULLABLE = [
  'email',
  'name',
  'external_id',
  'helpdesk_user_id',
  'crm_lead_id',
  'crm_contact_id',
  'preferred_language',
  'extra',
];

const OBJECTS: readonly ObjectRow[] = [
  // 2.2 Conversational agent configuration
  {
    name: '2.2 config',
    root: 'createAgent',
    path: CONFIG,
    fields: ['personas', 'voice', 'runtime', 'tool', 'language', 'channel'],
    required: ['personas', 'voice', 'runtime', 'tool', 'language', 'channel'],
  },
  { name: '2.2 Persona', root: 'createAgent', path: PERSONA, fields: ['name', 'voice'], required: ['name', 'voice'] },
  {
    name: '2.2 Voice variant (provider = service)',
    root: 'createAgent',
    path: [...PERSONA, 'voice', { tag: 'provider', value: 'service' }],
    fields: ['provider', 'id'],
    required: ['id'],
    defaults: { provider: 'service' },
  },
  {
    name: '2.2 VoiceConfig',
    root: 'createAgent',
    path: [...CONFIG, 'voice'],
    fields: ['ambient_sound', 'busy_sound', 'boosted_keywords'],
    required: ['boosted_keywords'],
    nullable: ['ambient_sound', 'busy_sound'],
    defaults: { ambient_sound: null, busy_sound: null },
  },
  {
    name: '2.2 RuntimeConfig',
    root: 'createAgent',
    path: [...CONFIG, 'runtime'],
    fields: ['model', 'prompt', 'variables'],
    required: ['model', 'prompt', 'variables'],
  },
  {
    name: '2.2 FixedPrompt',
    root: 'createAgent',
    path: [...PROMPT, { tag: 'type', value: 'fixed' }],
    fields: ['text', 'type'],
    required: ['text'],
    defaults: { type: 'fixed' },
  },
  {
    name: '2.2 RoutedPrompt',
    root: 'createAgent',
    path: [...PROMPT, { tag: 'type', value: 'routed' }],
    fields: ['text', 'routes', 'type'],
    required: ['text', 'routes'],
    defaults: { type: 'routed' },
  },
  {
    name: '2.2 RoutedPromptRoute',
    root: 'createAgent',
    path: [...PROMPT, { tag: 'type', value: 'routed' }, 'routes', '[]'],
    fields: ['id', 'name', 'is_enabled', 'description', 'text'],
    required: ['id', 'name', 'is_enabled', 'description', 'text'],
  },
  {
    name: '2.2 PromptVariable',
    root: 'createAgent',
    path: [...CONFIG, 'runtime', 'variables', '[]'],
    fields: ['name', 'description', 'default_value'],
    required: ['name', 'description'],
    nullable: ['default_value'],
    defaults: { default_value: null },
  },
  {
    name: '2.2 ToolConfig',
    root: 'createAgent',
    path: [...CONFIG, 'tool'],
    fields: ['tools', 'transfers'],
    required: ['tools', 'transfers'],
  },
  {
    name: '2.2 TransferID',
    root: 'createAgent',
    path: [...CONFIG, 'tool', 'transfers', '[]'],
    fields: ['id'],
    required: ['id'],
  },
  {
    name: '2.2 tool identifier ns = syscall',
    root: 'createAgent',
    path: [...TOOLS, { tag: 'ns', value: 'syscall' }],
    fields: ['ns', 'name'],
    required: ['ns', 'name'],
  },
  {
    name: '2.2 tool identifier ns = crm',
    root: 'createAgent',
    path: [...TOOLS, { tag: 'ns', value: 'crm' }],
    fields: ['ns', 'name'],
    required: ['ns', 'name'],
  },
  {
    name: '2.2 tool identifier ns = extapi',
    root: 'createAgent',
    path: [...TOOLS, { tag: 'ns', value: 'extapi' }],
    fields: ['ns', 'entity_id'],
    required: ['entity_id'],
    defaults: { ns: 'extapi' },
  },
  {
    name: '2.2 tool identifier ns = procedural',
    root: 'createAgent',
    path: [...TOOLS, { tag: 'ns', value: 'procedural' }],
    fields: ['ns', 'entity_id'],
    required: ['entity_id'],
    defaults: { ns: 'procedural' },
  },
  {
    name: '2.2 tool identifier ns = thirdparty',
    root: 'createAgent',
    path: [...TOOLS, { tag: 'ns', value: 'thirdparty' }],
    fields: ['ns', 'name'],
    required: ['name'],
    defaults: { ns: 'thirdparty' },
  },
  {
    name: '2.2 LanguageConfig',
    root: 'createAgent',
    path: [...CONFIG, 'language'],
    fields: ['default_language', 'supported_languages'],
    required: ['default_language', 'supported_languages'],
  },
  {
    name: '2.2 ChannelConfig',
    root: 'createAgent',
    path: [...CONFIG, 'channel'],
    fields: ['is_voicemail_enabled'],
    required: ['is_voicemail_enabled'],
  },
  // 2.3 Conversational agent record / 4.1
  {
    name: '4.1 POST /conversational_agents body',
    root: 'createAgent',
    path: [],
    fields: ['name', 'description', 'config', 'postprocess_agents'],
  },
  { name: '4.1 POST /conversational_agents 200', root: 'createAgentAnswer', path: [], fields: ['id', 'version_id'] },
  {
    name: '4.1 PUT /conversational_agents/{id} body (all optional, default null)',
    root: 'updateAgent',
    path: [],
    fields: ['name', 'description', 'config', 'postprocess_agents'],
    required: [],
    nullable: ['name', 'description', 'config', 'postprocess_agents'],
    defaults: { name: null, description: null, config: null, postprocess_agents: null },
  },
  {
    name: '4.1 PUT /conversational_agents/{id} 200',
    root: 'updateAgentAnswer',
    path: [],
    fields: ['id', 'version_id'],
    required: ['id', 'version_id'],
  },
  // 2.4 Procedural agent / 4.2
  {
    name: '2.4 procedural agent list item',
    root: 'listProcedural',
    path: ['data', '[]'],
    fields: ['id', 'created_at', 'updated_at', 'name', 'description', 'released_version_id', 'latest_version_id'],
  },
  {
    name: '4.2 GET /procedural_agents 200 (no cursor)',
    root: 'listProcedural',
    path: [],
    fields: ['data'],
    absent: ['cursor'],
  },
  {
    name: '2.4 procedural agent writable members',
    root: 'createProcedural',
    path: [],
    fields: ['name', 'description', 'config'],
  },
  {
    name: '2.4 procedural agent config',
    root: 'createProcedural',
    path: CONFIG,
    fields: ['filter_statuses', 'runtime', 'tool', 'output', 'filter_condition'],
    nullable: ['filter_condition'],
  },
  {
    name: '2.4 procedural agent config.runtime',
    root: 'createProcedural',
    path: [...CONFIG, 'runtime'],
    fields: ['prompt', 'reasoning_effort'],
  },
  {
    name: '2.4 procedural agent config.runtime.prompt',
    root: 'createProcedural',
    path: [...CONFIG, 'runtime', 'prompt'],
    fields: ['text', 'type'],
  },
  { name: '2.4 procedural agent config.tool', root: 'createProcedural', path: [...CONFIG, 'tool'], fields: ['tools'] },
  {
    name: '2.4 procedural agent config.tool.tools[] (objects with name)',
    root: 'createProcedural',
    path: [...CONFIG, 'tool', 'tools', '[]'],
    fields: ['name'],
  },
  {
    name: '2.4 procedural agent config.output',
    root: 'createProcedural',
    path: [...CONFIG, 'output'],
    fields: ['chat_channel', 'output_schema', 'post_url'],
    nullable: ['chat_channel', 'output_schema', 'post_url'],
  },
  { name: '4.2 POST /procedural_agents 200', root: 'createProceduralAnswer', path: [], fields: ['id', 'version_id'] },
  {
    name: '4.2 PUT /procedural_agents/{id} body (name nullable; other members as in create)',
    root: 'updateProcedural',
    path: [],
    fields: ['name', 'description', 'config'],
    nullable: ['name'],
  },
  {
    name: '4.2 PUT /procedural_agents/{id} 200',
    root: 'updateProceduralAnswer',
    path: [],
    fields: ['id', 'version_id'],
  },
  {
    name: '4.2 POST /procedural_agents/{version_id}/release 200',
    root: 'releaseProceduralAnswer',
    path: [],
    fields: ['id', 'version_id'],
  },
  // 2.5 Conversation / 4.3
  {
    name: '2.5 conversation full record',
    root: 'getConversation',
    path: [],
    fields: CONVERSATION_FIELDS,
    nullable: [...CONVERSATION_NULLABLE, 'override_config', 'summary'],
  },
  {
    name: '2.5 conversation channel, phone variant',
    root: 'getConversation',
    path: ['channel', { tag: 'type', value: 'phone' }],
    fields: ['type', 'callee_no', 'caller_no', 'recording_url'],
    nullable: ['callee_no', 'caller_no', 'recording_url'],
  },
  {
    name: '2.5 conversation list item (no channel, override_config, summary)',
    root: 'listConversations',
    path: ['data', '[]'],
    fields: CONVERSATION_LIST_FIELDS,
    nullable: CONVERSATION_NULLABLE,
    absent: ['channel', 'override_config', 'summary'],
  },
  {
    name: '4.3 GET /conversations 200',
    root: 'listConversations',
    path: [],
    fields: ['data', 'cursor'],
    nullable: ['cursor'],
  },
  {
    name: '4.3 POST /conversations body',
    root: 'createConversation',
    path: [],
    fields: ['agent_id', 'channel'],
    required: ['agent_id', 'channel'],
  },
  {
    name: '4.3 POST /conversations body channel, phone variant',
    root: 'createConversation',
    path: ['channel', { tag: 'type', value: 'phone' }],
    fields: ['type', 'callee_no', 'caller_no', 'priority'],
    required: ['type', 'callee_no'],
    nullable: ['caller_no'],
  },
  {
    name: '4.3 POST /conversations body channel, chat_realtime variant',
    root: 'createConversation',
    path: ['channel', { tag: 'type', value: 'chat_realtime' }],
    fields: ['type'],
    required: ['type'],
  },
  {
    name: '4.3 POST /conversations body channel, chat_async variant',
    root: 'createConversation',
    path: ['channel', { tag: 'type', value: 'chat_async' }],
    fields: ['type'],
    required: ['type'],
  },
  { name: '4.3 POST /conversations 200', root: 'createConversationAnswer', path: [], fields: ['id', 'channel'] },
  {
    name: '4.3 POST /conversations 200 channel',
    root: 'createConversationAnswer',
    path: ['channel'],
    fields: ['token', 'events_url', 'type', 'callee_no', 'caller_no'],
  },
  { name: '4.3 POST /conversations/{conversation_id}/context body', root: 'injectContext', path: [], fields: ['data'] },
  // 2.6 Procedure / 4.4
  {
    name: '2.6 procedure full record',
    root: 'getProcedure',
    path: [],
    fields: [
      'id',
      'livemode',
      'name',
      'conversation_id',
      'created_at',
      'status',
      'agent_id',
      'agent_version_id',
      'error',
      'input',
      'output',
      'summary',
    ],
    nullable: ['agent_id', 'agent_version_id', 'error', 'input', 'output', 'summary'],
  },
  {
    name: '2.6 procedure list item',
    root: 'listProcedures',
    path: ['page', '[]'],
    fields: ['id', 'livemode', 'name', 'conversation_id', 'agent_id', 'created_at', 'status', 'output', 'error'],
  },
  {
    name: '4.4 GET /procedures 200',
    root: 'listProcedures',
    path: [],
    fields: ['page', 'cursor'],
    nullable: ['cursor'],
  },
  // 2.7 Customer, 2.8 token
  {
    name: '2.7 customer',
    root: 'getCustomer',
    path: [],
    fields: ['id', 'created_at', 'updated_at', 'organization_id', 'phone_no', ...CUSTOMER_NULLABLE],
    nullable: CUSTOMER_NULLABLE,
  },
  { name: '2.8 conversation token', root: 'refreshToken', path: [], fields: ['token', 'expires_at'] },
  // 7 Errors
  {
    name: '7 error shape (PUT /conversational_agents/{id} 400)',
    root: 'updateAgent400',
    path: [],
    fields: ['code', 'transient', 'message', 'data'],
    requiredIncludes: ['code', 'transient', 'message'],
    optional: ['data'],
  },
  {
    name: '7 error shape (PUT /conversational_agents/{id} 404)',
    root: 'updateAgent404',
    path: [],
    fields: ['code', 'transient', 'message', 'data'],
    requiredIncludes: ['code', 'transient', 'message'],
    optional: ['data'],
  },
  // 6 Event envelopes
  {
    name: '6.1 server event envelope (all required)',
    root: 'eventStream',
    path: ['[]'],
    fields: ['id', 'created_at', 'agent_id', 'livemode', 'conversation_id', 'experimental', 'payload'],
    required: ['id', 'created_at', 'agent_id', 'livemode', 'conversation_id', 'experimental', 'payload'],
  },
  {
    name: '6.2 client event envelope',
    root: 'clientEvent',
    path: [],
    fields: ['id', 'payload'],
    required: ['payload'],
  },
];

// --- events -----------------------------------------------------------------------------------------------------

interface EventRow {
  readonly type: string;
  readonly fields: readonly string[];
  readonly requiredIncludes?: readonly string[];
  readonly optional?: readonly string[];
  readonly experimental?: boolean;
}

/** Section 6.1, one row per `payload.type`. */
const SERVER_EVENTS: readonly EventRow[] = [
  { type: 'conversation.setup', fields: ['channel', 'direction'] },
  { type: 'conversation.started', fields: [] },
  { type: 'conversation.ended', fields: ['ended_by'], optional: ['ended_by'] },
  {
    type: 'conversation.context.updated',
    fields: ['data', 'trigger_response'],
    requiredIncludes: ['data', 'trigger_response'],
  },
  { type: 'conversation.custom_fields.updated', fields: ['key', 'new_value', 'old_value'] },
  { type: 'agent.message.delta', fields: ['text_delta', 'generation_id'] },
  { type: 'agent.message.completed', fields: ['text', 'interrupted', 'has_tool_calls', 'generation_id'] },
  { type: 'agent.tool_call.created', fields: ['call_id', 'name', 'arguments'] },
  {
    type: 'agent.tool_call.returned',
    fields: ['call_id', 'name', 'arguments', 'result', 'error'],
    optional: ['error'],
  },
  { type: 'agent.notice.sent', fields: ['data'], experimental: true },
  { type: 'user.message.received', fields: ['text'] },
  { type: 'server.error', fields: ['error', 'source_event_id'], optional: ['source_event_id'] },
  { type: 'user.dtmf.received', fields: ['digits'], experimental: true },
  { type: 'agent.dtmf.sent', fields: ['digits'], experimental: true },
  {
    type: 'agent.customer.loaded',
    fields: ['name', 'email', 'phone_no', 'customer_id'],
    optional: ['name', 'email', 'phone_no', 'customer_id'],
    experimental: true,
  },
];

/** Section 6.2, one row per `payload.type`. */
const CLIENT_EVENTS: readonly EventRow[] = [
  { type: 'user.message.send', fields: ['text'], requiredIncludes: ['text'] },
  { type: 'conversation.context.update', fields: ['data'], requiredIncludes: ['data'] },
  { type: 'conversation.start', fields: [] },
  { type: 'conversation.end', fields: [] },
];

const serverPayload = (type: string): Step[] => ['[]', 'payload', { tag: 'type', value: type }];
const clientPayload = (type: string): Step[] => ['payload', { tag: 'type', value: type }];

const EVENT_OBJECTS: readonly ObjectRow[] = [
  ...SERVER_EVENTS.map(
    (e): ObjectRow => ({
      name: `6.1 ${e.type}`,
      root: 'eventStream',
      path: serverPayload(e.type),
      fields: ['type', ...e.fields],
      requiredIncludes: ['type', ...(e.requiredIncludes ?? [])],
      optional: e.optional ?? [],
      exact: true,
    }),
  ),
  {
    name: '6.1 conversation.setup channel',
    root: 'eventStream',
    path: [...serverPayload('conversation.setup'), 'channel'],
    fields: ['type', 'callee_no', 'caller_no', 'recording_url'],
    optional: ['callee_no', 'caller_no', 'recording_url'],
  },
  ...CLIENT_EVENTS.map(
    (e): ObjectRow => ({
      name: `6.2 ${e.type}`,
      root: 'clientEvent',
      path: clientPayload(e.type),
      fields: ['type', ...e.fields],
      requiredIncludes: ['type', ...(e.requiredIncludes ?? [])],
      exact: true,
    }),
  ),
];

// --- enums ------------------------------------------------------------------------------------------------------

interface EnumRow {
  readonly name: string;
  readonly root: RootName;
  readonly path: readonly Step[];
  readonly values: readonly string[];
  /** `exact`: the spec admits exactly these values; `includes`: the source shows only some accepted values. */
  readonly mode: 'exact' | 'includes';
}

const VOICES = ['Female 1', 'Female 2', 'Female 3', 'Male 1', 'Male 2', 'Male 3'];
const MODELS = [
  'provider_a/gpt-4o',
  'provider_a/gpt-4o-realtime',
  'provider_a/gpt-realtime',
  'provider_a/gpt-4.1',
  'provider_a/gpt-4.1-mini',
  'provider_a/gpt-5',
  'provider_a/gpt-5-mini',
  'provider_b/gemini-2.5-flash',
  'provider_b/gemini-2.5-flash-lite',
];
const LANGUAGES = ['English', 'Spanish'];
const CONVERSATION_STATUSES = ['queued', 'in-progress', 'completed', 'voicemail', 'failed', 'busy', 'no-answer'];
const FAILURE_REASONS = [
  'dial_failed',
  'number_marked_disconnected',
  'pstn_blocked',
  'dnc_rejected',
  'tcpa_rejected',
  'number_invalid',
  'internal_error',
  'telephony_error',
  'agent_timeout',
  'customer_requested_dnc',
];
const PROCEDURE_STATUSES = ['pending', 'running', 'success', 'failed', 'skipped', 'cancelled'];
const DIRECTIONS = ['inbound', 'outbound'];
const CHANNEL_TYPES = ['phone', 'chat_realtime', 'chat_async'];
const TOOL_NS = ['syscall', 'crm', 'extapi', 'procedural', 'thirdparty'];

const ENUMS: readonly EnumRow[] = [
  { name: 'voice ids', root: 'createAgent', path: [...PERSONA, 'voice', 'id'], values: VOICES, mode: 'exact' },
  {
    name: 'voice provider',
    root: 'createAgent',
    path: [...PERSONA, 'voice', 'provider'],
    values: ['service'],
    mode: 'exact',
  },
  { name: 'models', root: 'createAgent', path: [...CONFIG, 'runtime', 'model'], values: MODELS, mode: 'exact' },
  { name: 'prompt types', root: 'createAgent', path: [...PROMPT, 'type'], values: ['fixed', 'routed'], mode: 'exact' },
  {
    name: 'default_language',
    root: 'createAgent',
    path: [...CONFIG, 'language', 'default_language'],
    values: LANGUAGES,
    mode: 'exact',
  },
  {
    name: 'supported_languages items',
    root: 'createAgent',
    path: [...CONFIG, 'language', 'supported_languages', '[]'],
    values: LANGUAGES,
    mode: 'exact',
  },
  {
    name: 'ambient sounds',
    root: 'createAgent',
    path: [...CONFIG, 'voice', 'ambient_sound'],
    values: ['office'],
    mode: 'exact',
  },
  {
    name: 'busy sounds',
    root: 'createAgent',
    path: [...CONFIG, 'voice', 'busy_sound'],
    values: ['keyboard_typing'],
    mode: 'exact',
  },
  { name: 'tool ns values', root: 'createAgent', path: [...TOOLS, 'ns'], values: TOOL_NS, mode: 'exact' },
  {
    name: 'procedural prompt type',
    root: 'createProcedural',
    path: [...CONFIG, 'runtime', 'prompt', 'type'],
    values: ['fixed'],
    mode: 'exact',
  },
  {
    name: 'procedural reasoning_effort accepts medium',
    root: 'createProcedural',
    path: [...CONFIG, 'runtime', 'reasoning_effort'],
    values: ['medium'],
    mode: 'includes',
  },
  {
    name: 'conversation status',
    root: 'getConversation',
    path: ['status'],
    values: CONVERSATION_STATUSES,
    mode: 'exact',
  },
  {
    name: 'conversation list item status',
    root: 'listConversations',
    path: ['data', '[]', 'status'],
    values: CONVERSATION_STATUSES,
    mode: 'exact',
  },
  {
    name: 'failure reasons',
    root: 'getConversation',
    path: ['failure_reason'],
    values: FAILURE_REASONS,
    mode: 'exact',
  },
  {
    name: 'list item failure reasons',
    root: 'listConversations',
    path: ['data', '[]', 'failure_reason'],
    values: FAILURE_REASONS,
    mode: 'exact',
  },
  { name: 'conversation direction', root: 'getConversation', path: ['direction'], values: DIRECTIONS, mode: 'exact' },
  {
    name: 'list item direction',
    root: 'listConversations',
    path: ['data', '[]', 'direction'],
    values: DIRECTIONS,
    mode: 'exact',
  },
  {
    name: 'conversation.setup direction',
    root: 'eventStream',
    path: [...serverPayload('conversation.setup'), 'direction'],
    values: DIRECTIONS,
    mode: 'exact',
  },
  {
    name: 'conversation channel_type',
    root: 'getConversation',
    path: ['channel_type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'list item channel_type',
    root: 'listConversations',
    path: ['data', '[]', 'channel_type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'conversation channel.type',
    root: 'getConversation',
    path: ['channel', 'type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'POST /conversations channel.type',
    root: 'createConversation',
    path: ['channel', 'type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'POST /conversations 200 channel.type',
    root: 'createConversationAnswer',
    path: ['channel', 'type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'conversation.setup channel.type',
    root: 'eventStream',
    path: [...serverPayload('conversation.setup'), 'channel', 'type'],
    values: CHANNEL_TYPES,
    mode: 'exact',
  },
  {
    name: 'POST /conversations channel.priority accepts normal',
    root: 'createConversation',
    path: ['channel', { tag: 'type', value: 'phone' }, 'priority'],
    values: ['normal'],
    mode: 'includes',
  },
  { name: 'procedure status', root: 'getProcedure', path: ['status'], values: PROCEDURE_STATUSES, mode: 'exact' },
  {
    name: 'procedure list item status',
    root: 'listProcedures',
    path: ['page', '[]', 'status'],
    values: PROCEDURE_STATUSES,
    mode: 'exact',
  },
  {
    name: 'conversation.ended ended_by',
    root: 'eventStream',
    path: [...serverPayload('conversation.ended'), 'ended_by'],
    values: ['customer', 'agent', 'transfer'],
    mode: 'exact',
  },
  {
    name: 'server event types',
    root: 'eventStream',
    path: ['[]', 'payload', 'type'],
    values: SERVER_EVENTS.map((e) => e.type),
    mode: 'exact',
  },
  {
    name: 'client event types',
    root: 'clientEvent',
    path: ['payload', 'type'],
    values: CLIENT_EVENTS.map((e) => e.type),
    mode: 'exact',
  },
];

// --- endpoints --------------------------------------------------------------------------------------------------

interface EndpointRow {
  readonly method: string;
  readonly path: string;
  /** Response statuses the source names for the endpoint. */
  readonly statuses: readonly string[];
  /** The source says "No body". */
  readonly noBody?: boolean;
  /** Optional query parameters the source lists (names not shown). */
  readonly optionalQuery?: number;
  /** Media type of the 200 answer when it is not JSON. */
  readonly media?: string;
}

/** Section 4; the WebSocket endpoint is described as the GET handshake. */
const ENDPOINTS: readonly EndpointRow[] = [
  { method: 'post', path: '/conversational_agents', statuses: ['200'] },
  { method: 'put', path: '/conversational_agents/{id}', statuses: ['200', '400', '404'] },
  { method: 'post', path: '/procedural_agents', statuses: ['200'] },
  { method: 'get', path: '/procedural_agents', statuses: ['200'] },
  { method: 'put', path: '/procedural_agents/{id}', statuses: ['200'] },
  { method: 'delete', path: '/procedural_agents/{id}', statuses: ['200'] },
  { method: 'post', path: '/procedural_agents/{version_id}/release', statuses: ['200'], noBody: true },
  { method: 'post', path: '/conversations', statuses: ['200'] },
  { method: 'get', path: '/conversations', statuses: ['200'], optionalQuery: 5 },
  { method: 'get', path: '/conversations/{conversation_id}', statuses: ['200'] },
  { method: 'post', path: '/conversations/{conversation_id}/context', statuses: [] },
  { method: 'post', path: '/conversations/{conversation_id}/token/refresh', statuses: ['200'], noBody: true },
  { method: 'get', path: '/conversations/{conversation_id}/events', statuses: ['200'], media: 'text/event-stream' },
  { method: 'get', path: '/conversations/{conversation_id}/session', statuses: [] },
  { method: 'get', path: '/procedures', statuses: ['200'], optionalQuery: 5 },
  { method: 'get', path: '/procedures/{procedure_id}', statuses: ['200'] },
  { method: 'get', path: '/customers/{customer_id}', statuses: ['200'] },
];

// --- checks -----------------------------------------------------------------------------------------------------

const sorted = (values: Iterable<string>): string[] => [...values].sort();

function checkObject(row: ObjectRow): void {
  const schemas = locate(row.root, row.path);
  const where = `${row.name} (${at(row.root, row.path)})`;
  const properties = propertiesOf(schemas);
  const missing = row.fields.filter((f) => !properties.has(f));
  expect(missing, `${where}: missing field(s) ${missing.join(', ')}`).toEqual([]);

  const required = requiredOf(schemas.length === 1 ? schemas[0] : { anyOf: schemas });
  if (row.required) {
    expect(sorted(required), `${where}: required must be exactly [${row.required.join(', ')}]`).toEqual(
      sorted(row.required),
    );
  }
  const notRequired = (row.requiredIncludes ?? []).filter((f) => !required.has(f));
  expect(notRequired, `${where}: the source requires ${notRequired.join(', ')}`).toEqual([]);
  const wronglyRequired = (row.optional ?? []).filter((f) => required.has(f));
  expect(wronglyRequired, `${where}: the source makes ${wronglyRequired.join(', ')} optional`).toEqual([]);

  const notNullable = (row.nullable ?? []).filter((f) => !allowsNull(walk(schemas, [f], where)));
  expect(notNullable, `${where}: the source allows null for ${notNullable.join(', ')}`).toEqual([]);

  const present = (row.absent ?? []).filter((f) => properties.has(f));
  expect(present, `${where}: the source omits ${present.join(', ')}`).toEqual([]);

  for (const [field, value] of Object.entries(row.defaults ?? {})) {
    const defaults = defaultsOf(walk(schemas, [field], where));
    expect(defaults, `${where}: ${field} must default to ${JSON.stringify(value)}`).toContainEqual(value);
  }

  if (row.exact) {
    const extra = sorted(properties).filter((f) => !row.fields.includes(f));
    expect(extra, `${where}: field(s) the source does not list: ${extra.join(', ')}`).toEqual([]);
  }
}

describe('source coverage', () => {
  describe('section 4 endpoints', () => {
    for (const row of ENDPOINTS) {
      it(`${row.method.toUpperCase()} ${row.path}`, () => {
        const pointer = operation(row.method, row.path);
        const op = getAt(openapi, pointer);
        expect(isObject(op), `openapi.yaml has no ${row.method.toUpperCase()} ${row.path}`).toBe(true);
        const responses = isObject(op) && isObject(op.responses) ? op.responses : {};
        const missing = row.statuses.filter((s) => responses[s] === undefined);
        expect(missing, `${row.method.toUpperCase()} ${row.path}: missing response(s) ${missing.join(', ')}`).toEqual(
          [],
        );
        const successes = Object.keys(responses).filter((s) => /^[12]/.test(s));
        expect(successes.length, `${row.method.toUpperCase()} ${row.path}: no success response`).toBeGreaterThan(0);
        if (row.noBody)
          expect((op as JsonObject).requestBody, `${row.path}: the source says "No body"`).toBeUndefined();
        if (row.media) {
          const ok = getAt(openapi, `${pointer}/responses/200/content/${escapePointer(row.media)}`);
          expect(isObject(ok), `${row.path}: the 200 answer must be ${row.media}`).toBe(true);
        }
        if (row.optionalQuery !== undefined) {
          const entry = operations().find((e) => e.pointer === pointer);
          const query = entry ? parametersOf(entry).filter((p) => p.in === 'query') : [];
          const optional = query.filter((p) => p.required !== true);
          expect(
            optional.length,
            `${row.path}: the source lists ${row.optionalQuery} optional query parameters`,
          ).toBeGreaterThanOrEqual(row.optionalQuery);
          expect(query.length - optional.length, `${row.path}: every query parameter is optional`).toBe(0);
        }
      });
    }
  });

  describe('section 2 resources and section 4 bodies', () => {
    for (const row of OBJECTS) it(row.name, () => checkObject(row));
  });

  describe('section 6 events', () => {
    for (const row of EVENT_OBJECTS) it(row.name, () => checkObject(row));

    for (const row of SERVER_EVENTS) {
      it(`6.1 ${row.type} is ${row.experimental ? '' : 'not '}experimental`, () => {
        const [variant] = locate('eventStream', serverPayload(row.type));
        expect(variant?.['x-casi-experimental'] === true, `${row.type}: x-casi-experimental`).toBe(
          row.experimental === true,
        );
      });
    }

    const contextData: [string, RootName, Step[]][] = [
      [
        '6.1 conversation.context.updated data',
        'eventStream',
        [...serverPayload('conversation.context.updated'), 'data'],
      ],
      [
        '6.2 conversation.context.update data',
        'clientEvent',
        [...clientPayload('conversation.context.update'), 'data'],
      ],
    ];
    for (const [name, root, path] of contextData) {
      it(`${name} maps strings to strings`, () => {
        const values = locate(root, path)
          .flatMap((s) => expand(s))
          .map((s) => s.additionalProperties)
          .filter((a) => a !== undefined);
        const types = values.flatMap((a) => expand(a)).map((a) => a.type);
        expect(types, `${name}: additionalProperties must be {type: string}`).toContain('string');
        expect(
          types.every((t) => t === 'string' || t === undefined),
          `${name}: values are strings only`,
        ).toBe(true);
      });
    }
  });

  describe('enum values', () => {
    for (const row of ENUMS) {
      it(`${row.name} (${at(row.root, row.path)})`, () => {
        const got = enumValues(locate(row.root, row.path));
        if (row.mode === 'exact') {
          expect(sorted([...got].map(String)), `${row.name}: the source lists exactly these values`).toEqual(
            sorted(row.values),
          );
        } else {
          const missing = row.values.filter((v) => !got.has(v));
          expect(missing, `${row.name}: missing value(s) ${missing.join(', ')}`).toEqual([]);
        }
      });
    }
  });

  describe('limits', () => {
    it('user.message.send text is at most 4096 characters', () => {
      const text = locate('clientEvent', [...clientPayload('user.message.send'), 'text']).flatMap((s) => expand(s));
      const limits = text.map((s) => s.maxLength).filter((m) => m !== undefined);
      expect(limits, 'user.message.send text: maxLength').toEqual([4096]);
    });

    it('Service-Version admits only 2025-06-19, on every operation that declares it', () => {
      const problems: string[] = [];
      let seen = 0;
      for (const entry of operations()) {
        for (const p of parametersOf(entry)) {
          const isVersion =
            (p.in === 'header' && p.name === 'Service-Version') || (p.in === 'query' && p.name === 'service_version');
          if (!isVersion) continue;
          seen += 1;
          const values = sorted([...enumValues([p.schema as Json])].map(String));
          if (JSON.stringify(values) !== JSON.stringify(['2025-06-19'])) {
            problems.push(`${entry.pointer} ${String(p.name)}: [${values.join(', ')}]`);
          }
        }
      }
      expect(seen, 'no Service-Version parameter found').toBeGreaterThan(0);
      expect(problems, 'Service-Version must admit exactly 2025-06-19').toEqual([]);
    });
  });

  describe('section 4.3 POST /conversations body: the three unnamed optional members', () => {
    it('has an optional boolean (live-mode flag) and two optional objects (config override, context)', () => {
      const [body] = locate('createConversation', []);
      const required = requiredOf(body);
      const others = sorted(propertiesOf([body as Json])).filter((f) => f !== 'agent_id' && f !== 'channel');
      const typeOf = (f: string): string[] =>
        walk([body as Json], [f], 'createConversation')
          .flatMap((s) => expand(s))
          .flatMap((s) => (typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type.map(String) : []));
      const optional = others.filter((f) => !required.has(f));
      const booleans = optional.filter((f) => typeOf(f).includes('boolean'));
      const objects = optional.filter((f) => typeOf(f).includes('object'));
      expect(booleans.length, `optional boolean members: [${booleans.join(', ')}]`).toBeGreaterThanOrEqual(1);
      expect(objects.length, `optional object members: [${objects.join(', ')}]`).toBeGreaterThanOrEqual(2);
    });
  });
});
