/** The conversational agent the console creates on demand for its chats: one tool and one transfer, so triggers work. */
import type { CreateConversationalAgentRequest } from '../../generated/src/types.gen.js';

/** The tool the console agent offers (`/tool order_lookup {...}`, or any message mentioning the weather). */
export const CONSOLE_TOOL = 'order_lookup';

/** The body the console creates its agent with. */
export const CONSOLE_AGENT: CreateConversationalAgentRequest = {
  name: 'Console agent',
  description: 'Created by the console of the reference server for its chats.',
  config: {
    personas: [{ name: 'Ava', voice: { id: 'Female 1' } }],
    voice: { boosted_keywords: [] },
    runtime: {
      model: 'provider_a/gpt-4.1-mini',
      prompt: { text: 'You are the console agent of the CASI reference server.' },
      variables: [],
    },
    tool: { tools: [{ ns: 'thirdparty', name: CONSOLE_TOOL }], transfers: [{ id: 'desk' }] },
    language: { default_language: 'English', supported_languages: ['English'] },
    channel: { is_voicemail_enabled: false },
  },
};
