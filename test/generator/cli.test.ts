import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closestNames } from '../../generator/commands/validate.js';
import { MANIFEST } from '../../generator/write.js';
import { casi, fixture, ROOT, SPEC } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const validEvent = {
  id: 'ev_1',
  created_at: '2025-07-02T14:00:00Z',
  agent_id: 'ca_7Qk2Lm9Xa@v1',
  livemode: true,
  conversation_id: 'conv_9Xr4Tb2Kp',
  experimental: false,
  payload: { type: 'agent.message.delta', text_delta: 'Hi', generation_id: 'gen_1' },
};

describe('casi validate', () => {
  it('prints valid and exits 0 for a valid file', async () => {
    const file = join(work, 'event.json');
    writeFileSync(file, JSON.stringify(validEvent));
    const result = await casi(['validate', '--schema', 'ServerEvent', file]);
    expect(result).toMatchObject({ code: 0, stdout: 'valid\n' });
  });

  it('reads standard input and prints one pointer line per problem, exit 1', async () => {
    const event = { ...validEvent, created_at: 'yesterday', payload: { type: 'agent.message.delta', text_delta: 3 } };
    const result = await casi(['validate', '--schema', 'AgentMessageDeltaEvent', '-'], JSON.stringify(event));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\/created_at: must match format "date-time", got "yesterday" \(format\)$/m);
    expect(result.stdout).toMatch(/^\/payload\/text_delta: must be string, got 3 \(type\)$/m);
    expect(result.stdout).toMatch(
      /^\/payload\/generation_id: must have required property 'generation_id' \(required\)$/m,
    );
  });

  it('enforces the 4096-character limit of user.message.send', async () => {
    const event = { payload: { type: 'user.message.send', text: 'x'.repeat(4097) } };
    const result = await casi(['validate', '--schema', 'ClientEvent', '-'], JSON.stringify(event));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('/payload/text: must NOT have more than 4096 characters');
  });

  it('exits 1 for text that is not JSON', async () => {
    const result = await casi(['validate', '--schema', 'Error', '-'], '{"code":');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('not JSON');
  });

  it('names the line and column of a JSON syntax error, on one line, and skips a leading byte order mark', async () => {
    const file = join(work, 'broken.json');
    writeFileSync(file, '{\n  "code": tru\n}\n');
    const broken = await casi(['validate', '--schema', 'Error', file]);
    expect(broken).toMatchObject({ code: 1, stdout: `${file}:2:14: not JSON: expected true, found "\\n"\n` });
    const trailing = await casi(['validate', '--schema', 'Error', '-'], '{"code": "x"}\n\n  garbage');
    expect(trailing).toMatchObject({ code: 1, stdout: '<stdin>:3:3: not JSON: unexpected "g" after the JSON value\n' });
    const multiline = await casi(['validate', '--schema', 'Error', '-'], '{"message": "a\nb"}');
    expect(multiline.stdout).toBe('<stdin>:1:15: not JSON: control character "\\n" in a string (escape it)\n');
    const bom = join(work, 'bom.json');
    writeFileSync(bom, `\uFEFF${JSON.stringify(validEvent)}`);
    expect(await casi(['validate', '--schema', 'ServerEvent', bom])).toMatchObject({ code: 0, stdout: 'valid\n' });
  });

  it("exits 2 with the check's file:line diagnostics when the specs cannot be used, without a stack", async () => {
    const openapi = join(work, 'unresolved.yaml');
    writeFileSync(
      openapi,
      readFileSync(SPEC.openapi, 'utf8').replace(
        "$ref: '#/components/schemas/ErrorCode'",
        "$ref: '#/components/schemas/NoSuchThing'",
      ),
    );
    const unresolved = await casi(['validate', '--schema', 'Error', '--openapi', openapi, '-'], '{}');
    expect(unresolved.code).toBe(2);
    expect(unresolved.stderr).toMatch(
      /unresolved\.yaml:\d+:\d+ error \$ref #\/components\/schemas\/NoSuchThing points to nothing \(openapi\/no-unresolved-refs\)/,
    );
    expect(unresolved.stderr).toMatch(/^casi: cannot validate: /m);
    expect(unresolved.stderr).not.toMatch(/^\s+at |MissingRefError/m);
    const missing = await casi(['validate', '--schema', 'Error', '--openapi', join(work, 'nope.yaml'), '-'], '{}');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^casi: cannot validate: cannot read .*nope\.yaml/m);
  }, 60_000);

  it('exits 2 and suggests names for an unknown schema', async () => {
    const result = await casi(['validate', '--schema', 'Conversaton', '-'], '{}');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown schema "Conversaton"');
    expect(result.stderr).toContain('Conversation');
  });

  it('exits 2 for a missing file and for an unknown flag', async () => {
    expect((await casi(['validate', '--schema', 'Error', join(work, 'nope.json')])).code).toBe(2);
    const unknown = await casi(['validate', '--schema', 'Error', '--colour', 'x.json']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown argument/i);
  });

  it('ranks close names', () => {
    expect(closestNames('conversaton', ['Conversation', 'Customer', 'Procedure'])).toEqual(['Conversation']);
    expect(closestNames('Event', ['ServerEvent', 'ClientEvent', 'Error'])).toEqual(['ClientEvent', 'ServerEvent']);
  });
});

describe('casi schemas, check, generate', () => {
  it('lists the required names', async () => {
    const names = (await casi(['schemas'])).stdout.trim().split('\n');
    for (const name of [
      'ServerEvent',
      'ClientEvent',
      'ConversationalAgentConfig',
      'Conversation',
      'Error',
      'AgentMessageDeltaEvent',
    ])
      expect(names).toContain(name);
  });

  it('check exits 1 with file:line diagnostics for a broken document', async () => {
    const dir = join(work, 'broken');
    cpSync(join(ROOT, 'test/fixtures/widgets'), dir, { recursive: true });
    const file = join(dir, 'openapi.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace("        - $ref: '#/components/schemas/WidgetChanged'\n", ''),
    );
    const result = await casi(['check', '--openapi', file, '--asyncapi', join(dir, 'asyncapi.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/openapi\.yaml:\d+:\d+ error /);
  });

  it('reads only the document given, and says so when there is none to read', async () => {
    const empty = mkdtempSync(join(work, 'empty-'));
    const none = await casi(['check'], '', empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no document to read: name one with --openapi or --asyncapi');
    const gemini = join(ROOT, '../shared/spec-corpus/gemini-websocket.asyncapi.yaml');
    const alone = await casi(['check', '--asyncapi', gemini], '', empty);
    expect(alone.stdout).toMatch(/^\S*asyncapi\.yaml: 0 error\(s\), \d+ warning\(s\)$/m);
    expect(alone.code).toBe(0);
  }, 60_000);

  it('generate prints no warning of ajv itself: a binary body with an example', async () => {
    const file = join(work, 'upload.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.3',
        'info: {title: Upload, version: "1"}',
        'paths:',
        '  /upload:',
        '    post:',
        '      requestBody:',
        '        content:',
        '          application/octet-stream:',
        '            schema: {type: string, format: binary}',
        "            examples: {default: {value: '@example.zip'}}",
        '      responses: {"204": {description: ok}}',
      ].join('\n'),
    );
    const result = await casi(['generate', '--openapi', file, '--out', join(work, 'upload')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('unknown format');
    expect(result.stdout).toContain('casi: wrote');
  }, 60_000);

  it('names the generated package from --name, and refuses a name npm would not take', async () => {
    const spec = { openapi: join(ROOT, '../shared/spec-corpus/museum.openapi.yaml') };
    const out = join(work, 'named');
    const named = await casi(['generate', '--openapi', spec.openapi, '--out', out, '--name', '@acme/widgets']);
    expect(named.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).name).toBe('@acme/widgets');
    const refused = await casi(['generate', '--openapi', spec.openapi, '--out', out, '--name', 'Not A Name']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--name Not A Name is not an npm package name');
  }, 60_000);

  it('reports a schema ajv cannot compile at its file:line in check and generate, one line, no stack', async () => {
    const dir = join(work, 'uncompilable');
    cpSync(join(ROOT, 'test/fixtures/widgets'), dir, { recursive: true });
    const file = join(dir, 'openapi.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('name: {type: string, maxLength: 20}', 'name: {type: string, pattern: "(open"}'));
    const line = text.split('\n').indexOf('    CreateWidgetRequest:') + 2;
    const args = ['--openapi', file, '--asyncapi', join(dir, 'asyncapi.yaml')];
    for (const command of [['check'], ['generate', '--out', join(dir, 'out')]]) {
      const result = await casi([...command, ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`openapi\\.yaml:${line}:\\d+ error the schema CreateWidgetRequest cannot be compiled: .*\\(open`),
      );
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  }, 60_000);

  it('generate --check names stale files and exits 1; after generate it exits 0', async () => {
    const out = join(work, 'out');
    const spec = fixture('widgets');
    const args = ['--openapi', spec.openapi, '--asyncapi', spec.asyncapi, '--out', out];
    const stale = await casi(['generate', '--check', ...args]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('src/types.gen.ts (missing)');
    expect((await casi(['generate', ...args])).code).toBe(0);
    expect((await casi(['generate', '--check', ...args])).code).toBe(0);
    // From a working directory outside the toolkit: the same output, byte for byte.
    const elsewhere = await casi(['generate', '--check', ...args], '', work);
    expect(elsewhere.stderr).not.toMatch(/ error |is stale|Could not resolve/);
    expect(elsewhere.code).toBe(0);
    writeFileSync(join(out, 'src/types.gen.ts'), '// edited by hand\n');
    const edited = await casi(['generate', '--check', ...args]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('src/types.gen.ts (differs)');
  }, 120_000);

  it('generate counts the files it wrote: all in a new folder, none unchanged, after an edit those that differ', async () => {
    const dir = join(work, 'counted');
    cpSync(join(ROOT, 'test/fixtures/widgets'), dir, { recursive: true });
    const file = join(dir, 'openapi.yaml');
    const out = join(dir, 'out');
    mkdirSync(out);
    const run = async () => {
      const result = await casi([
        'generate',
        '--openapi',
        file,
        '--asyncapi',
        join(dir, 'asyncapi.yaml'),
        '--out',
        out,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const [, files, changed] = /— (\d+) files, (\d+) changed, in/.exec(result.stdout) ?? [];
      return { files: Number(files), changed: Number(changed) };
    };
    /** Every file of the output but the manifest, by path. */
    const contents = () =>
      new Map(
        readdirSync(out, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && e.name !== MANIFEST)
          .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')]),
      );

    const fresh = await run();
    expect(fresh.files).toBe(contents().size);
    expect(fresh).toEqual({ files: fresh.files, changed: fresh.files });
    expect(await run()).toEqual({ files: fresh.files, changed: 0 });
    const before = contents();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('name: {type: string, maxLength: 20}', 'name: {type: string, maxLength: 30}'));
    const edited = await run();
    const differing = [...contents()].filter(([path, content]) => before.get(path) !== content);
    expect(differing.length).toBeGreaterThan(0);
    expect(edited).toEqual({ files: fresh.files, changed: differing.length });
  }, 120_000);

  it('checks and generates specs whose schemas live in files of their own, or names the $ref it cannot follow', async () => {
    const split = fixture('split');
    const out = join(work, 'out-split');
    const args = ['--openapi', split.openapi, '--asyncapi', split.asyncapi];
    const checked = await casi(['check', ...args]);
    expect(checked.stdout).toContain('0 error(s)');
    expect(checked.code).toBe(0);
    expect((await casi(['generate', ...args, '--out', out])).code).toBe(0);
    // The same package as the same schemas written inline.
    const widgets = fixture('widgets');
    const same = await casi([
      'generate',
      '--check',
      '--openapi',
      widgets.openapi,
      '--asyncapi',
      widgets.asyncapi,
      '--out',
      out,
    ]);
    expect(same.code).toBe(0);

    const dir = join(work, 'split-missing');
    cpSync(join(split.openapi, '..'), dir, { recursive: true });
    rmSync(join(dir, 'schemas/events.yaml'));
    const missing = await casi([
      'generate',
      '--openapi',
      join(dir, 'openapi.yaml'),
      '--asyncapi',
      join(dir, 'asyncapi.yaml'),
      '--out',
      join(work, 'out-missing'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /openapi\.yaml:\d+:\d+ error `\$ref: \.\/schemas\/events\.yaml#\/WidgetChanged`: cannot read /,
    );
    expect(missing.stderr).toMatch(
      /asyncapi\.yaml:\d+:\d+ error `\$ref: \.\/schemas\/events\.yaml#\/WidgetChanged`: cannot read /,
    );
    expect(missing.stderr).not.toMatch(/^\s+at /m);
  }, 120_000);

  it.each([
    [['validate', '--schema', 'Error', '--schema', 'Error', '-'], '--schema was given more than once'],
    [['check', '--openapi', 'a.yaml', '--openapi', 'b.yaml'], '--openapi was given more than once'],
    [['generate', '--out', 'a', '--out', 'b'], '--out was given more than once'],
    [['serve', '--port', '1', '--port', '2'], '--port was given more than once'],
    [['validate', '--schema'], '--schema needs a value'],
    [['generate', '--out', ''], '--out needs a value'],
    [['serve', '--port', ''], '--port needs a value'],
    [['serve', '--port'], '--port needs a value'],
    [['--bogus'], 'unknown option --bogus; name a command'],
    [['--bogus', 'serve'], 'unknown option --bogus; name a command'],
  ])('refuses %j as a usage error (exit 2): %s', async (args, message) => {
    const result = await casi(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`casi: ${message}`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('prints help for every command', async () => {
    const commands = ['generate', 'check', 'validate', 'schemas', 'serve'];
    const results = await Promise.all(commands.map((command) => casi([command, '--help'])));
    results.forEach((result, i) => {
      expect(result.code, commands[i]).toBe(0);
      expect(result.stdout).toContain(`casi ${commands[i]}`);
    });
    expect((await casi([])).code).toBe(2);
  });

  it("prints the toolkit's version for --version, exit 0", async () => {
    const result = await casi(['--version']);
    expect(result.code).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(result.stdout.trim()).toBe(version);
  });
});
