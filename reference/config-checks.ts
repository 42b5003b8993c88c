/** Checks of agent configurations beyond the schema: the language rule, and a merged configuration's validity. */
import type { ConversationalAgentConfig } from '../generated/src/types.gen.js';
import { validateConversationalAgentConfig } from '../generated/src/validators.gen.js';
import { invalidRequest, serviceError } from './errors.js';

/** 400 `language_not_supported` when `default_language` is not one of `supported_languages`. */
export function checkLanguage(config: ConversationalAgentConfig): void {
  const { default_language: language, supported_languages: supported } = config.language;
  if (!supported.includes(language)) {
    throw serviceError(
      'language_not_supported',
      `The default language ${language} is not one of the supported languages (${supported.join(', ') || 'none'}).`,
    );
  }
}

/** 400 `invalid_request` (pointers under `pointerPrefix` of the body) when `config` breaks the schema. */
export function checkConfigSchema(config: unknown, pointerPrefix: string): asserts config is ConversationalAgentConfig {
  if (validateConversationalAgentConfig(config)) return;
  throw invalidRequest(
    (validateConversationalAgentConfig.errors ?? []).map((issue) => ({
      in: 'body' as const,
      pointer: `${pointerPrefix}${issue.pointer}`,
      message: `${issue.message} (after merging override_config)`,
    })),
  );
}
