/** Plain messages for common mistakes: an unknown command, a folder or a missing file given as the spec, bad values. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { casi, ROOT } from './helpers.js';

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'cli-messages-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A server event of the spec with its payload replaced. */
const event = (payload: object) =>
  JSON.stringify({
    id: 'ev_1',
    created_at: '2025-07-02T14:00:00.050Z',
    agent_id: 'ca_7Qk2Lm9Xa@v1',
    livemode: true,
    conversation_id: 'conv_9Xr4Tb2Kp',
    experimental: false,
    payload,
  });

describe('casi messages', () => {
  it('names an unknown command as a command, exit 2', async () => {
    const result = await casi(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^casi: Unknown command: frobnicate$/m);
  });

  it('says a folder is not a file and a missing file is missing, in one line, exit 1', async () => {
    const folder = await casi(['check', '--openapi', work]);
    expect(folder.code).toBe(1);
    expect(folder.stderr.trim()).toBe(`casi: cannot read ${work}: it is a folder, not a file`);
    const missing = await casi(['check', '--openapi', join(work, 'nope.yaml')]);
    expect(missing.stderr.trim()).toBe(`casi: cannot read ${join(work, 'nope.yaml')}: no such file`);
  });

  it('says a document that is not OpenAPI is not, at its first line, exit 1', async () => {
    const result = await casi(['check', '--openapi', join(ROOT, 'package.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /package\.json:1:1 error This is not an OpenAPI 3\.0 or 3\.1 document: its "openapi" field is missing or names another version\. \(casi\/openapi\)/,
    );
    expect(result.stderr).not.toMatch(/internal error/);
  });

  it('names the bad event type and every known one', async () => {
    const result = await casi(['validate', '--schema', 'ServerEvent', '-'], event({ type: 'agent.nope' }));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^\/payload\/type: "agent\.nope" is not a known "type": one of "agent\.customer\.loaded", .*"conversation\.setup", .* \(discriminator\)$/m,
    );
  });

  it('says an event without its type misses it, not that the type must be a string', async () => {
    const result = await casi(['validate', '--schema', 'ServerEvent', '-'], event({ text_delta: 'Hi' }));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\/payload\/type: must have required property 'type' \(discriminator\)$/m);
  });

  it('names the allowed values of an enum and the bad value, each problem once', async () => {
    const payload = { type: 'conversation.setup', channel: { type: 'pigeon' }, direction: 'sideways' };
    const result = await casi(['validate', '--schema', 'ConversationSetupEvent', '-'], event(payload));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        '/payload/channel/type: must be one of "phone", "chat_realtime", "chat_async", got "pigeon" (enum)',
        '/payload/direction: must be one of "inbound", "outbound", got "sideways" (enum)',
        '',
      ].join('\n'),
    );
  });
});
