/**
 * Agent configurations with the spec's defaults filled in (`ambient_sound: null`, `prompt.type`, tool `ns`, the
 * procedural `filter_statuses`, `reasoning_effort`, `output` …), so that what is read back is complete.
 */
import type {
  ConversationalAgentConfig,
  Persona,
  ProceduralAgentConfig,
  Prompt,
  PromptVariable,
  ToolIdentifier,
} from '../generated/src/types.gen.js';

/** A conversational configuration with every defaulted member present. */
export function withConversationalDefaults(config: ConversationalAgentConfig): ConversationalAgentConfig {
  return {
    personas: config.personas.map(withPersonaDefaults),
    voice: {
      ambient_sound: config.voice.ambient_sound ?? null,
      busy_sound: config.voice.busy_sound ?? null,
      boosted_keywords: [...config.voice.boosted_keywords],
    },
    runtime: {
      model: config.runtime.model,
      prompt: withPromptDefaults(config.runtime.prompt),
      variables: config.runtime.variables.map(withVariableDefaults),
    },
    tool: {
      tools: config.tool.tools.map(withToolDefaults),
      transfers: config.tool.transfers.map((t) => ({ id: t.id })),
    },
    language: {
      default_language: config.language.default_language,
      supported_languages: [...config.language.supported_languages],
    },
    channel: {
      is_voicemail_enabled: config.channel.is_voicemail_enabled,
      ...(config.channel.is_sms_enabled === undefined ? {} : { is_sms_enabled: config.channel.is_sms_enabled }),
    },
  };
}

/** A procedural configuration with every defaulted member present. */
export function withProceduralDefaults(config: ProceduralAgentConfig): ProceduralAgentConfig {
  const output = config.output;
  // Members beyond the spec's table are kept as sent (the source says they exist; `runtime.model` is one).
  return {
    ...structuredClone(config),
    filter_statuses: [...(config.filter_statuses ?? [])],
    runtime: {
      ...structuredClone(config.runtime),
      prompt: { text: config.runtime.prompt.text, type: 'fixed' },
      reasoning_effort: config.runtime.reasoning_effort ?? 'medium',
    },
    tool: { tools: (config.tool?.tools ?? []).map(withToolDefaults) },
    output: {
      chat_channel: output?.chat_channel ?? null,
      output_schema: output?.output_schema ?? null,
      post_url: output?.post_url ?? null,
    },
    filter_condition: config.filter_condition ?? null,
  };
}

/** The tool's `ns`, defaulted as DECISIONS.md says: `entity_id` alone is `extapi`, `name` alone is `thirdparty`. */
export function withToolDefaults(tool: ToolIdentifier): ToolIdentifier {
  // The generated type makes `ns` required (it has a default); a request may still omit it.
  const loose = tool as { ns?: ToolIdentifier['ns']; name?: string; entity_id?: string };
  if (loose.ns !== undefined) return { ...tool };
  if (loose.entity_id !== undefined) return { ns: 'extapi', entity_id: loose.entity_id };
  return { ns: 'thirdparty', name: loose.name ?? '' };
}

/** The name a tool is called by: its `name`, or its `entity_id` for API and procedural tools. */
export function toolName(tool: ToolIdentifier): string {
  return 'entity_id' in tool ? tool.entity_id : tool.name;
}

function withPersonaDefaults(persona: Persona): Persona {
  return { name: persona.name, voice: { provider: persona.voice.provider ?? 'service', id: persona.voice.id } };
}

function withPromptDefaults(prompt: Prompt): Prompt {
  if ('routes' in prompt) return { text: prompt.text, routes: prompt.routes.map((r) => ({ ...r })), type: 'routed' };
  return { text: prompt.text, type: 'fixed' };
}

function withVariableDefaults(variable: PromptVariable): PromptVariable {
  return { name: variable.name, description: variable.description, default_value: variable.default_value ?? null };
}
