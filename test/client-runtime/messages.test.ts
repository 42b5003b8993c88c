/** MessageAssembler and ToolCallTracker: table tests over event sequences. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AgentMessage, MessageAssembler, ToolCallTracker } from '../../templates/client/messages.js';

type Payload = { type: string; [field: string]: unknown };
const ev = (payload: Payload) => ({ id: 'ev', payload });
const delta = (generation_id: string, text_delta: string) =>
  ev({ type: 'agent.message.delta', generation_id, text_delta });
const completed = (generation_id: string, text: string, extra: Partial<Payload> = {}) =>
  ev({ type: 'agent.message.completed', generation_id, text, interrupted: false, has_tool_calls: false, ...extra });
const message = (generationId: string, text: string, complete: boolean, extra: Partial<AgentMessage> = {}) => ({
  generationId,
  text,
  complete,
  interrupted: false,
  hasToolCalls: false,
  ...extra,
});

describe('MessageAssembler', () => {
  const table: [string, { given: ReturnType<typeof ev>[]; want: AgentMessage[] }][] = [
    ['nothing', { given: [], want: [] }],
    ['deltas only', { given: [delta('g1', 'Hel'), delta('g1', 'lo')], want: [message('g1', 'Hello', false)] }],
    [
      'the completed text wins',
      { given: [delta('g1', 'Helo'), completed('g1', 'Hello.')], want: [message('g1', 'Hello.', true)] },
    ],
    ['completed without deltas', { given: [completed('g1', 'Hi')], want: [message('g1', 'Hi', true)] }],
    [
      'interleaved generations keep their first-seen order',
      {
        given: [delta('g1', 'a'), delta('g2', 'x'), delta('g1', 'b'), completed('g2', 'xy'), delta('g1', 'c')],
        want: [message('g1', 'abc', false), message('g2', 'xy', true)],
      },
    ],
    [
      'a delta after completion is ignored',
      { given: [completed('g1', 'done'), delta('g1', ' more')], want: [message('g1', 'done', true)] },
    ],
    [
      'flags of the completed message',
      {
        given: [delta('g1', 'I was'), completed('g1', 'I was', { interrupted: true, has_tool_calls: true })],
        want: [message('g1', 'I was', true, { interrupted: true, hasToolCalls: true })],
      },
    ],
    [
      'other events are ignored',
      {
        given: [
          ev({ type: 'user.message.received', text: 'hi' }),
          ev({ type: 'conversation.started' }),
          delta('g1', 'ok'),
        ],
        want: [message('g1', 'ok', false)],
      },
    ],
  ];
  it.each(table)('%s', (_name, { given, want }) => {
    const assembler = new MessageAssembler();
    for (const event of given) assembler.feed(event);
    expect(assembler.messages).toEqual(want);
    expect(assembler.pending).toEqual(want.filter((m) => !m.complete));
    expect(assembler.completed).toEqual(want.filter((m) => m.complete));
  });

  it('returns the message an event changed', () => {
    const assembler = new MessageAssembler();
    expect(assembler.feed(delta('g1', 'a'))).toEqual(message('g1', 'a', false));
    expect(assembler.feed(ev({ type: 'conversation.started' }))).toBeUndefined();
    expect(assembler.get('g1')?.text).toBe('a');
  });
});

const created = (call_id: string, name = 'lookup') =>
  ev({ type: 'agent.tool_call.created', call_id, name, arguments: '{"q":1}' });
const returned = (call_id: string, name = 'lookup', error?: string) =>
  ev({ type: 'agent.tool_call.returned', call_id, name, arguments: '{"q":1}', result: '{"ok":true}', error });

describe('ToolCallTracker', () => {
  const table: [string, { given: ReturnType<typeof ev>[]; pending: string[]; completed: [string, boolean][] }][] = [
    ['nothing', { given: [], pending: [], completed: [] }],
    ['created only', { given: [created('c1')], pending: ['c1'], completed: [] }],
    ['created then returned', { given: [created('c1'), returned('c1')], pending: [], completed: [['c1', true]] }],
    [
      'two calls returned out of order',
      {
        given: [created('c1'), created('c2'), returned('c2'), returned('c1')],
        pending: [],
        completed: [
          ['c2', true],
          ['c1', true],
        ],
      },
    ],
    [
      'one of two still pending',
      { given: [created('c1'), created('c2'), returned('c1')], pending: ['c2'], completed: [['c1', true]] },
    ],
    ['returned without its creation', { given: [returned('c9')], pending: [], completed: [['c9', false]] }],
    [
      'a replayed creation after the return stays completed',
      { given: [created('c1'), returned('c1'), created('c1')], pending: [], completed: [['c1', true]] },
    ],
  ];
  it.each(table)('%s', (_name, { given, pending, completed }) => {
    const tracker = new ToolCallTracker();
    for (const event of given) tracker.feed(event);
    expect(tracker.pending.map((event) => event.payload.call_id)).toEqual(pending);
    expect(tracker.completed.map((pair) => [pair.callId, pair.created !== undefined])).toEqual(completed);
    for (const pair of tracker.completed) expect(pair.returned.payload.call_id).toBe(pair.callId);
  });

  it('keeps the error of a failed call and ignores other events', () => {
    const tracker = new ToolCallTracker();
    expect(tracker.feed(delta('g1', 'x'))).toBe(false);
    expect(tracker.feed(created('c1'))).toBe(true);
    expect(tracker.feed(returned('c1', 'lookup', 'timeout'))).toBe(true);
    expect(tracker.completed[0]?.returned.payload.error).toBe('timeout');
    expect(tracker.completed[0]?.created?.payload.name).toBe('lookup');
  });

  it('types the pairs from the event union', () => {
    type Created = { id: string; payload: { type: 'agent.tool_call.created'; call_id: string; name: string } };
    type Returned = { id: string; payload: { type: 'agent.tool_call.returned'; call_id: string; result: string } };
    type Other = { id: string; payload: { type: 'conversation.started' } };
    const tracker = new ToolCallTracker<Created | Returned | Other>();
    expectTypeOf(tracker.pending).toEqualTypeOf<Created[]>();
    expectTypeOf(tracker.completed[0]?.returned).toEqualTypeOf<Returned | undefined>();
  });
});
