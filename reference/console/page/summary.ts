/** One line about an event for the event log: what its payload says, shortened. */
import type { ServerEvent } from '../../../generated/src/types.gen.js';

const MAX = 90;

function short(text: string): string {
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

/** The interesting part of `event`'s payload, or '' when there is none. */
export function summarize(event: ServerEvent): string {
  const p = event.payload;
  switch (p.type) {
    case 'agent.message.delta':
      return short(JSON.stringify(p.text_delta));
    case 'agent.message.completed':
      return short(JSON.stringify(p.text)) + (p.has_tool_calls ? ' · tool calls' : '');
    case 'user.message.received':
      return short(JSON.stringify(p.text));
    case 'agent.tool_call.created':
      return short(`${p.name}(${p.arguments})`);
    case 'agent.tool_call.returned':
      return short(`${p.name} → ${p.error ?? p.result}`);
    case 'conversation.context.updated':
      return short(JSON.stringify(p.data));
    case 'conversation.custom_fields.updated':
      return short(`${p.key} = ${JSON.stringify(p.new_value)}`);
    case 'conversation.ended':
      return p.ended_by === undefined ? '' : `by ${p.ended_by}`;
    case 'conversation.setup':
      return `${p.channel.type}, ${p.direction}`;
    case 'server.error':
      return short(p.error);
    default:
      return '';
  }
}
