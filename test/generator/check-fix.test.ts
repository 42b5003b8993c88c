/** `casi check --fix`: a new event written in one place (its payload schema and its message), the lists follow. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendEntries } from '../../generator/check/yaml-append.js';
import { HANDOFF_MESSAGE, HANDOFF_PAYLOAD, insertBefore } from '../fixtures/spec-edits.js';
import { casi, ROOT, SPEC } from './helpers.js';

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'check-fix-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('casi check --fix', () => {
  const dir = join(work, 'spec');
  const files = { openapi: join(dir, 'openapi.yaml'), asyncapi: join(dir, 'asyncapi.yaml') };
  const args = ['--openapi', files.openapi, '--asyncapi', files.asyncapi];

  it('names every list a new server event is missing from, then adds it there and nowhere else', async () => {
    mkdirSync(dir);
    cpSync(SPEC.openapi, files.openapi);
    cpSync(SPEC.asyncapi, files.asyncapi);
    insertBefore(files.openapi, '    ServerEventPayload:', HANDOFF_PAYLOAD);
    insertBefore(files.asyncapi, '    AgentToolCallCreatedEvent:', HANDOFF_MESSAGE);
    const before = { openapi: readFileSync(files.openapi, 'utf8'), asyncapi: readFileSync(files.asyncapi, 'utf8') };

    const checked = await casi(['check', ...args]);
    expect(checked.code).toBe(1);
    const missing = checked.stderr.split('\n').filter((line) => line.includes('casi/event-lists'));
    expect(missing.map((line) => line.replace(/^.*?(openapi|asyncapi)\.yaml:\d+:\d+ error /, '$1: '))).toEqual([
      'asyncapi: missing message AgentHandoffRequestedEvent in channel conversationEvents (casi check --fix adds it) (casi/event-lists) at #/channels/conversationEvents/messages',
      'asyncapi: missing message AgentHandoffRequestedEvent in channel conversationSession (casi check --fix adds it) (casi/event-lists) at #/channels/conversationSession/messages',
      'asyncapi: missing message AgentHandoffRequestedEvent in operation sendConversationEvents (channel conversationEvents) (casi check --fix adds it) (casi/event-lists) at #/operations/sendConversationEvents/messages',
      'asyncapi: missing message AgentHandoffRequestedEvent in operation sendSessionEvents (channel conversationSession) (casi check --fix adds it) (casi/event-lists) at #/operations/sendSessionEvents/messages',
      'openapi: missing AgentHandoffRequested in ServerEventPayload.oneOf (the payload of message AgentHandoffRequestedEvent) (casi check --fix adds it) (casi/event-lists) at #/components/schemas/ServerEventPayload/oneOf',
      "openapi: missing agent.handoff.requested: '#/components/schemas/AgentHandoffRequested' in the discriminator mapping of ServerEventPayload (casi check --fix adds it) (casi/event-lists) at #/components/schemas/ServerEventPayload/discriminator/mapping",
    ]);

    const fixed = await casi(['check', '--fix', ...args]);
    expect(fixed.stderr).not.toContain(' error ');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout.split('\n').filter((l) => l.includes(': added '))).toHaveLength(6);
    const added = (kind: 'openapi' | 'asyncapi') => {
      const old = before[kind].split('\n');
      const now = readFileSync(files[kind], 'utf8').split('\n');
      // Every old line is still there, in order; the rest are the added entries.
      const extra: string[] = [];
      let i = 0;
      for (const line of now) {
        if (line === old[i]) i++;
        else extra.push(line);
      }
      expect(i).toBe(old.length);
      return extra;
    };
    expect(added('openapi')).toEqual([
      "        - $ref: '#/components/schemas/AgentHandoffRequested'",
      "          agent.handoff.requested: '#/components/schemas/AgentHandoffRequested'",
    ]);
    expect(added('asyncapi')).toEqual([
      '      AgentHandoffRequestedEvent:',
      "        $ref: '#/components/messages/AgentHandoffRequestedEvent'",
      '      AgentHandoffRequestedEvent:',
      "        $ref: '#/components/messages/AgentHandoffRequestedEvent'",
      "      - $ref: '#/channels/conversationEvents/messages/AgentHandoffRequestedEvent'",
      "      - $ref: '#/channels/conversationSession/messages/AgentHandoffRequestedEvent'",
    ]);
    expect((await casi(['check', '--fix', ...args])).stdout).not.toContain(': added ');
  }, 60_000);

  it('gives a generated package with the event in its unions', async () => {
    const out = join(work, 'out');
    expect((await casi(['generate', ...args, '--out', out])).code).toBe(0);
    const types = readFileSync(join(out, 'src/types.gen.ts'), 'utf8');
    expect(types).toContain("'agent.handoff.requested'");
    expect(readFileSync(join(out, 'src/validators.gen.ts'), 'utf8')).toContain('validateAgentHandoffRequestedEvent');
  }, 60_000);
});

describe('appendEntries', () => {
  const text = [
    'list:  # the list',
    '  - a   # first',
    '  - b',
    'map:',
    '  x: 1  # one',
    '  y: 2',
    'end: true',
    '',
  ].join('\n');

  it('copies a sibling with names replaced, keeping every other byte', () => {
    const out = appendEntries(text, [
      { path: ['list'], sibling: 1, replace: [['b', 'c']] },
      { path: ['map'], sibling: 'x', replace: [['x', 'z']] },
    ]);
    expect(out).toBe(
      [
        'list:  # the list',
        '  - a   # first',
        '  - b',
        '  - c',
        'map:',
        '  x: 1  # one',
        '  z: 1  # one',
        '  y: 2',
        'end: true',
        '',
      ].join('\n'),
    );
  });

  it('refuses a flow collection and a missing sibling, naming the path', () => {
    expect(() => appendEntries('list: [a, b]\n', [{ path: ['list'], sibling: 1, replace: [] }])).toThrow(
      'list is not a block collection',
    );
    expect(() => appendEntries(text, [{ path: ['map'], sibling: 'w', replace: [] }])).toThrow('map has no entry w');
  });
});
