/** WHATWG Server-Sent Events framing: one message, a comment or a `retry:` line, as wire text. */

/** One SSE message; `data` is sent as text, one `data:` line per line of it. */
export interface SseMessage {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/** `id: …\nevent: …\ndata: …\n\n`; throws `RangeError` for an id or event name holding a line break or NUL. */
export function formatMessage(message: SseMessage): string {
  let text = '';
  if (message.id !== undefined) text += `id: ${singleLine('id', message.id, true)}\n`;
  if (message.event !== undefined) text += `event: ${singleLine('event', message.event, false)}\n`;
  for (const line of message.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** `: text\n\n` per line of text (a comment the client ignores; keeps proxies from timing out). */
export function formatComment(text: string): string {
  return `${text
    .split(LINE_BREAK)
    .map((line) => `: ${line}\n`)
    .join('')}\n`;
}

/** `retry: ms\n\n`: the client's reconnection delay. */
export function formatRetry(milliseconds: number): string {
  if (!Number.isInteger(milliseconds) || milliseconds < 0) {
    throw new RangeError(`SSE retry must be a non-negative integer, got ${milliseconds}`);
  }
  return `retry: ${milliseconds}\n\n`;
}

function singleLine(field: string, value: string, noNul: boolean): string {
  if (LINE_BREAK.test(value) || (noNul && value.includes('\0'))) {
    throw new RangeError(`SSE ${field} must be one line${noNul ? ' without NUL' : ''}: ${JSON.stringify(value)}`);
  }
  return value;
}
