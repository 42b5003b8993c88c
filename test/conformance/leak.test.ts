/**
 * `--auth2`: what the first identity creates must not be readable with the second. A server that keeps notes apart
 * passes; one that lets any token read any note has the leak found, with the second identity's `curl` replay.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './lint.js';
import { startNotesServer } from './planted/notes.js';
import { conformanceInProcess } from './run-casi.js';

const NOTES = join(ROOT, 'test/conformance/planted/notes.yaml');

async function check(leaky: boolean) {
  const server = await startNotesServer(leaky);
  try {
    const args = ['--openapi', NOTES, '--base-url', server.url, '--auth', 'bearer:alice', '--auth2', 'bearer:bob'];
    return { url: server.url, ...(await conformanceInProcess([...args, '--runs', '3', '--seed', '4'])) };
  } finally {
    await server.app.close();
  }
}

describe('casi conformance --auth2', () => {
  it('finds a note of the first identity read with the second, with the replay as the second', async () => {
    const run = await check(true);
    expect(run.stdout).toMatch(/^identity_leak\s+1\s+0\s+1\s+0$/m);
    expect(run.stdout).toMatch(
      /^FAIL identity_leak getNote: the second identity read what the first created \(createNote\): GET \/notes\/n\d+ → 200/m,
    );
    const replay = /^REPLAY identity_leak getNote: (.*)$/m.exec(run.stdout)?.[1];
    expect(replay).toMatch(new RegExp(`^curl -i -X GET '${run.url}/notes/n\\d+' -H 'Authorization: Bearer bob'$`));
    expect(run.code).toBe(1);
  });

  it('passes a server that keeps each identity to its own notes', async () => {
    const run = await check(false);
    expect(run.stdout).toMatch(/^identity_leak\s+1\s+1\s+0\s+0$/m);
    expect(run.stdout).not.toMatch(/^FAIL identity_leak/m);
  });

  it('refuses a --auth2 of no known form with one line', async () => {
    const run = await conformanceInProcess(['--openapi', NOTES, '--base-url', 'http://127.0.0.1:9', '--auth2', 'bob']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('casi: --auth2 "bob" is not one of')]);
  });
});
