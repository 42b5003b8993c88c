/** SSE framing as pure functions: a table of messages and the exact wire text each gives. */
import { describe, expect, it } from 'vitest';
import { formatComment, formatMessage, formatRetry, type SseMessage } from '../../templates/server/index.js';

const messages: [string, { given: SseMessage; want: string }][] = [
  ['data only', { given: { data: '{"a":1}' }, want: 'data: {"a":1}\n\n' }],
  ['id and data', { given: { id: 'ev_1', data: 'x' }, want: 'id: ev_1\ndata: x\n\n' }],
  ['event name', { given: { id: '7', event: 'update', data: 'x' }, want: 'id: 7\nevent: update\ndata: x\n\n' }],
  ['LF lines', { given: { data: 'a\nb' }, want: 'data: a\ndata: b\n\n' }],
  ['CRLF and CR lines', { given: { data: 'a\r\nb\rc' }, want: 'data: a\ndata: b\ndata: c\n\n' }],
  ['empty data', { given: { data: '' }, want: 'data: \n\n' }],
  ['trailing line break', { given: { data: 'a\n' }, want: 'data: a\ndata: \n\n' }],
];

describe('formatMessage', () => {
  it.each(messages)('%s', (_, { given, want }) => {
    expect(formatMessage(given)).toBe(want);
  });

  it.each([
    ['an id with a line break', { id: 'a\nb', data: '' }],
    ['an id with NUL', { id: 'a\0b', data: '' }],
    ['an event with a CR', { event: 'a\rb', data: '' }],
  ])('refuses %s', (_, given) => {
    expect(() => formatMessage(given)).toThrow(RangeError);
  });
});

describe('formatComment and formatRetry', () => {
  it('prefixes each comment line with a colon', () => {
    expect(formatComment('heartbeat')).toBe(': heartbeat\n\n');
    expect(formatComment('a\nb')).toBe(': a\n: b\n\n');
  });

  it('writes retry, and refuses a delay that is not a non-negative integer', () => {
    expect(formatRetry(1000)).toBe('retry: 1000\n\n');
    expect(() => formatRetry(-1)).toThrow(RangeError);
    expect(() => formatRetry(1.5)).toThrow(RangeError);
  });
});
