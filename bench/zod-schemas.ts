/**
 * Zod 4 schemas written by hand to match spec/openapi.yaml for the validation benchmark: `ConversationalAgentConfig`,
 * `CreateConversationRequest` and `ServerEvent`. `additionalProperties: false` is `strictObject`, `oneOf` with a
 * discriminator is `discriminatedUnion`, plain `oneOf` is `xor`, `anyOf` is `union`; defaults are not applied
 * (ajv does not apply them either), so optional members stay optional.
 */
import { z } from 'zod';

const id = (prefix: string, version = false) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]+${version ? '@v[0-9]+' : ''}$`));
const phoneNumber = z.string().regex(/^\+[1-9][0-9]{6,14}$/);
const nullableString = z.string().nullable();
const contextData = z.record(z.string(), z.string());
const anyObject = z.record(z.string(), z.unknown());

// --- conversational agent configuration ---------------------------------------------------------------------
const persona = z.strictObject({
  name: z.string(),
  voice: z.strictObject({
    provider: z.enum(['service']).optional(),
    id: z.enum(['Female 1', 'Female 2', 'Female 3', 'Male 1', 'Male 2', 'Male 3']),
  }),
});
const ambientSound = z.enum(['office']).nullable();
const busySound = z.enum(['keyboard_typing']).nullable();
const model = z.enum([
  'provider_a/gpt-4o',
  'provider_a/gpt-4o-realtime',
  'provider_a/gpt-realtime',
  'provider_a/gpt-4.1',
  'provider_a/gpt-4.1-mini',
  'provider_a/gpt-5',
  'provider_a/gpt-5-mini',
  'provider_b/gemini-2.5-flash',
  'provider_b/gemini-2.5-flash-lite',
]);
const prompt = z.xor([
  z.strictObject({ text: z.string(), type: z.enum(['fixed']).optional() }),
  z.strictObject({
    text: z.string(),
    routes: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        is_enabled: z.boolean(),
        description: z.string(),
        text: z.string(),
      }),
    ),
    type: z.enum(['routed']).optional(),
  }),
]);
const promptVariable = z.strictObject({
  name: z.string(),
  description: z.string(),
  default_value: nullableString.optional(),
});
const toolIdentifier = z.union([
  z.strictObject({ ns: z.enum(['syscall']), name: z.string() }),
  z.strictObject({ ns: z.enum(['crm']), name: z.string() }),
  z.strictObject({ ns: z.enum(['extapi']).optional(), entity_id: z.string() }),
  z.strictObject({ ns: z.enum(['procedural']).optional(), entity_id: z.string() }),
  z.strictObject({ ns: z.enum(['thirdparty']).optional(), name: z.string() }),
]);
const transferId = z.strictObject({ id: z.string() });
const language = z.enum(['English', 'Spanish']);

const voiceFields = { ambient_sound: ambientSound, busy_sound: busySound, boosted_keywords: z.array(z.string()) };
const runtimeFields = { model, prompt, variables: z.array(promptVariable) };
const toolFields = { tools: z.array(toolIdentifier), transfers: z.array(transferId) };
const languageFields = { default_language: language, supported_languages: z.array(language) };
const channelFields = { is_voicemail_enabled: z.boolean() };

/** `ConversationalAgentConfig`: all six members required. */
export const ConversationalAgentConfig = z.strictObject({
  personas: z.array(persona),
  voice: z.strictObject({ ...voiceFields, ambient_sound: ambientSound.optional(), busy_sound: busySound.optional() }),
  runtime: z.strictObject(runtimeFields),
  tool: z.strictObject(toolFields),
  language: z.strictObject(languageFields),
  channel: z.strictObject(channelFields),
});

/** `ConversationalAgentConfigOverride`: every member optional, at every level. */
const configOverride = z.strictObject({
  personas: z.array(persona).optional(),
  voice: z.strictObject(voiceFields).partial().optional(),
  runtime: z.strictObject(runtimeFields).partial().optional(),
  tool: z.strictObject(toolFields).partial().optional(),
  language: z.strictObject(languageFields).partial().optional(),
  channel: z.strictObject(channelFields).partial().optional(),
});

// --- conversations ------------------------------------------------------------------------------------------
const priority = z.enum(['low', 'normal', 'high']).optional();

/** `CreateConversationRequest`, its channel discriminated by `type`. */
export const CreateConversationRequest = z.strictObject({
  agent_id: z.string().regex(/^ca_[A-Za-z0-9]+(@v[0-9]+)?$/),
  channel: z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('phone'),
      callee_no: phoneNumber,
      caller_no: phoneNumber.nullable().optional(),
      priority,
    }),
    z.strictObject({ type: z.literal('chat_realtime'), priority }),
    z.strictObject({ type: z.literal('chat_async'), priority }),
  ]),
  livemode: z.boolean().optional(),
  override_config: configOverride.optional(),
  context: anyObject.optional(),
});

// --- server events ------------------------------------------------------------------------------------------
const generationId = z.string().min(1);
const callId = z.string().min(1);
const customFieldValue = z.union([z.string(), z.boolean()]);

const serverEventPayload = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('conversation.setup'),
    channel: z.strictObject({
      type: z.enum(['phone', 'chat_realtime', 'chat_async']),
      callee_no: nullableString.optional(),
      caller_no: nullableString.optional(),
      recording_url: nullableString.optional(),
    }),
    direction: z.enum(['inbound', 'outbound']),
  }),
  z.strictObject({ type: z.literal('conversation.started') }),
  z.strictObject({
    type: z.literal('conversation.ended'),
    ended_by: z.enum(['customer', 'agent', 'transfer']).optional(),
  }),
  z.strictObject({
    type: z.literal('conversation.context.updated'),
    data: contextData,
    trigger_response: z.boolean(),
  }),
  z.strictObject({
    type: z.literal('conversation.custom_fields.updated'),
    key: z.string(),
    new_value: customFieldValue,
    old_value: customFieldValue.nullable().optional(),
  }),
  z.strictObject({ type: z.literal('agent.message.delta'), text_delta: z.string(), generation_id: generationId }),
  z.strictObject({
    type: z.literal('agent.message.completed'),
    text: z.string(),
    interrupted: z.boolean(),
    has_tool_calls: z.boolean(),
    generation_id: generationId,
  }),
  z.strictObject({
    type: z.literal('agent.tool_call.created'),
    call_id: callId,
    name: z.string(),
    arguments: z.string(),
  }),
  z.strictObject({
    type: z.literal('agent.tool_call.returned'),
    call_id: callId,
    name: z.string(),
    arguments: z.string(),
    result: z.string(),
    error: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('agent.notice.sent'), data: anyObject }),
  z.strictObject({ type: z.literal('user.message.received'), text: z.string() }),
  z.strictObject({ type: z.literal('server.error'), error: z.string(), source_event_id: z.string().optional() }),
  z.strictObject({ type: z.literal('user.dtmf.received'), digits: z.string() }),
  z.strictObject({ type: z.literal('agent.dtmf.sent'), digits: z.string() }),
  z.strictObject({
    type: z.literal('agent.customer.loaded'),
    name: z.string().optional(),
    email: z.string().optional(),
    phone_no: z.string().optional(),
    customer_id: id('cus').optional(),
  }),
]);

/** The payload types whose envelope has `experimental: true` (all others have false). */
const EXPERIMENTAL = new Set(['agent.notice.sent', 'user.dtmf.received', 'agent.dtmf.sent', 'agent.customer.loaded']);

/** `ServerEvent`: the envelope with any of the 15 server payloads; `experimental` true exactly for those above. */
export const ServerEvent = z
  .strictObject({
    id: id('ev'),
    created_at: z.iso.datetime({ offset: true }),
    agent_id: id('ca', true),
    livemode: z.boolean(),
    conversation_id: id('conv'),
    experimental: z.boolean(),
    payload: serverEventPayload,
  })
  .refine((event) => event.experimental === EXPERIMENTAL.has(event.payload.type), {
    path: ['experimental'],
    message: 'must be true exactly for the experimental payload types',
  });

/** The zod schema of each benchmarked spec schema, by name. */
export const zodSchemas = { ConversationalAgentConfig, CreateConversationRequest, ServerEvent } as const;
