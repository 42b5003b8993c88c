/**
 * What the scripted agent answers to one user message: the documented triggers (`/tool`, `/field`, `/hangup`,
 * `/transfer`, the word "weather") or the echo `You said: <text>`. Pure: no events, no state.
 */
import type { ConversationalAgentConfig, CustomFieldValue } from '../generated/src/types.gen.js';
import { toolName } from './defaults.js';
import { isPlainObject } from './merge.js';

/** A tool call the agent makes in the middle of its reply. */
export interface PlannedToolCall {
  readonly name: string;
  /** Raw JSON. */
  readonly arguments: string;
  /** Raw JSON. */
  readonly result: string;
  /** Set when the call fails (arguments `{"fail": true}`). */
  readonly error?: string;
}

/** One agent turn: text spoken before and after an optional tool call, and what else happens. */
export interface ReplyPlan {
  readonly before: string;
  readonly toolCall?: PlannedToolCall;
  readonly after: string;
  /** A custom field the turn sets first (`/field`). */
  readonly field?: { readonly key: string; readonly value: CustomFieldValue };
  /** The agent ends the conversation after speaking (`/hangup`: agent, `/transfer`: transfer). */
  readonly endedBy?: 'agent' | 'transfer';
}

const TOOL_COMMAND = /^\/tool\s+(\S+)(?:\s+([\s\S]*\S))?\s*$/;
const FIELD_COMMAND = /^\/field\s+(\S+)\s+([\s\S]*\S)\s*$/;
const WEATHER = /\bweather\b/i;

/** The reply to user text `text` under `config`. */
export function planReply(text: string, config: ConversationalAgentConfig): ReplyPlan {
  const command = text.trim();
  const tool = TOOL_COMMAND.exec(command);
  if (tool?.[1] !== undefined) return planToolCommand(tool[1], tool[2] ?? '{}', config);
  const field = FIELD_COMMAND.exec(command);
  if (field?.[1] !== undefined && field[2] !== undefined) {
    const value = field[2] === 'true' ? true : field[2] === 'false' ? false : field[2];
    return { before: `Custom field ${field[1]} set.`, after: '', field: { key: field[1], value } };
  }
  if (command === '/hangup') return { before: 'Goodbye.', after: '', endedBy: 'agent' };
  if (command === '/transfer') {
    return config.tool.transfers.length > 0
      ? { before: 'Transferring you now.', after: '', endedBy: 'transfer' }
      : { before: 'I have no transfer configured.', after: '' };
  }
  const first = config.tool.tools[0];
  if (WEATHER.test(text) && first !== undefined) {
    return withToolCall(toolName(first), JSON.stringify({ query: text }), { query: text });
  }
  return { before: `You said: ${text}`, after: '' };
}

function planToolCommand(name: string, args: string, config: ConversationalAgentConfig): ReplyPlan {
  if (!config.tool.tools.some((t) => toolName(t) === name))
    return { before: `I have no tool named ${name}.`, after: '' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { before: `The arguments of /tool ${name} are not JSON.`, after: '' };
  }
  return withToolCall(name, JSON.stringify(parsed), parsed);
}

function withToolCall(name: string, args: string, parsed: unknown): ReplyPlan {
  const before = `Let me check with ${name}. `;
  if (isPlainObject(parsed) && parsed.fail === true) {
    const error = 'The tool failed: its arguments asked it to.';
    return { before, toolCall: { name, arguments: args, result: 'null', error }, after: `${name} failed.` };
  }
  const result = JSON.stringify({ ok: true, echo: parsed });
  return { before, toolCall: { name, arguments: args, result }, after: `${name} returned ${result}.` };
}

/** Most `agent.message.delta` events of one generation. */
export const MAX_DELTAS = 32;

/**
 * Splits `text` into word chunks (each word with the spaces around it), grouped so that there are at most
 * `MAX_DELTAS`; the chunks concatenate to `text` exactly. Empty text gives no chunk.
 */
export function splitIntoDeltas(text: string, max = MAX_DELTAS): string[] {
  if (text === '') return [];
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  if (words.join('') !== text) return [text];
  const size = Math.ceil(words.length / max);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(''));
  return chunks;
}
