import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-watch-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('regenerates on a change of a spec or of a file it references, names the changed files, and stops on SIGINT with 0', async () => {
  const spec = join(work, 'spec');
  cpSync(join(ROOT, 'test/fixtures/split'), spec, { recursive: true });
  const out = join(work, 'out');
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/casi.mjs'),
      'generate',
      '--watch',
      '--openapi',
      join(spec, 'openapi.yaml'),
      '--asyncapi',
      join(spec, 'asyncapi.yaml'),
      '--out',
      out,
    ],
    { cwd: ROOT },
  );
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 300 && !pattern.test(log); i++) await new Promise((r) => setTimeout(r, 100));
    expect(log).toMatch(pattern);
  };
  try {
    await waitFor(/watching/);
    const file = join(spec, 'openapi.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('summary: Read a widget', 'summary: Read one widget'));
    await waitFor(/openapi\.yaml changed[\s\S]*updated [^\n]*src\/client\.gen\.ts/);
    expect(readFileSync(join(out, 'src/client.gen.ts'), 'utf8')).toContain('Read one widget');
    // A schema kept in a file of its own (schemas/), referenced from both documents.
    const schema = join(spec, 'schemas/events.yaml');
    writeFileSync(
      schema,
      readFileSync(schema, 'utf8').replace('name: {type: string}', 'name: {type: string, description: The new name.}'),
    );
    await waitFor(/schemas\/events\.yaml changed[\s\S]*updated [^\n]*src\/types\.gen\.ts/);
    expect(readFileSync(join(out, 'src/types.gen.ts'), 'utf8')).toContain('The new name.');
  } finally {
    child.kill('SIGINT');
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
}, 60_000);
