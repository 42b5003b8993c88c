/**
 * `casi diff` and `casi release` as run: exit codes, the line and JSON shapes, a folder and a git ref as the base,
 * and releases that raise the version by the changes, the same way every time.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { casi, ROOT, SPEC } from '../generator/helpers.js';

mkdirSync(resolve(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(resolve(ROOT, 'tmp/diff-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ours = { openapi: readFileSync(SPEC.openapi, 'utf8'), asyncapi: readFileSync(SPEC.asyncapi, 'utf8') };

/** Our OpenAPI text with `from` replaced by `to` (once; it must be there). */
function openapiWith(from: string, to: string): string {
  expect(ours.openapi).toContain(from);
  return ours.openapi.replace(from, to);
}

/** A folder holding `openapi` and our asyncapi.yaml, as an old version. */
function folder(name: string, openapi: string, asyncapi: string | null = ours.asyncapi): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.yaml'), openapi);
  if (asyncapi !== null) writeFileSync(join(dir, 'asyncapi.yaml'), asyncapi);
  return dir;
}

/** Old versions: the conversation had one more required member (ours lost it, which breaks clients). */
const REQUIRED_MEMBER = [
  '        - sentiment\n      properties:\n        id:\n',
  '        - sentiment\n        - legacy_id\n      properties:\n        legacy_id:\n          type: string\n        id:\n',
] as const;
const LIMIT_USE = "        - $ref: '#/components/parameters/Limit'\n";

describe('casi diff against a folder', () => {
  // Old: the conversation had one more required member; ours lost it, which breaks clients.
  const breakingBase = folder('breaking', openapiWith(...REQUIRED_MEMBER));

  it('prints one line per change and exits 0 without --fail-on', async () => {
    const run = await casi(['diff', '--base', breakingBase]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^breaking +tmp\/diff-cli-\w+\/breaking\/openapi\.yaml:\d+ {2}GET \/conversations\/\{conversation_id\}: removed response 200 required member legacy_id/,
    );
    expect(lines.at(-1)).toBe(`1 breaking, 0 non-breaking change against ${breakingBase}`);
  });

  it('exits 1 with --fail-on breaking on a breaking change', async () => {
    const run = await casi(['diff', '--base', breakingBase, '--fail-on', 'breaking']);
    expect(run.code).toBe(1);
  });

  it('exits 0 with --fail-on breaking when nothing breaks', async () => {
    const base = folder('same', ours.openapi);
    const withoutLimit = folder('without-limit', openapiWith(LIMIT_USE, ''));
    const same = await casi(['diff', '--base', base, '--fail-on', 'breaking']);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe(`no changes against ${base}\n`);
    const added = await casi(['diff', '--base', withoutLimit, '--fail-on', 'breaking', '--json']);
    expect(JSON.parse(added.stdout).breaking).toBe(0);
    expect(added.code).toBe(0);
  });

  it('--json gives the counts and every change with its place', async () => {
    const run = await casi(['diff', '--base', breakingBase, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ breaking: 1, nonBreaking: 0 });
    expect(report.changes).toHaveLength(1);
    const [change] = report.changes;
    expect(Object.keys(change).sort()).toEqual(
      ['action', 'also', 'document', 'file', 'kind', 'line', 'pointer', 'subject', 'what'].sort(),
    );
    expect(change).toMatchObject({
      kind: 'breaking',
      action: 'removed',
      document: 'openapi',
      subject: 'GET /conversations/{conversation_id}',
      what: 'response 200 required member legacy_id',
      pointer: '/components/schemas/Conversation/properties/legacy_id',
    });
    const oldLines = readFileSync(join(breakingBase, 'openapi.yaml'), 'utf8').split('\n');
    // The member as written: its key, or the first line of its value.
    expect(oldLines.slice(change.line - 2, change.line).join('\n')).toMatch(/^ {8}legacy_id:$/m);
  });

  it('a folder without the old document, a bad ref and a bad --fail-on are usage errors (exit 2)', async () => {
    const half = folder('half', ours.openapi, null);
    const missing = await casi(['diff', '--base', half]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`casi: --base ${half} has no asyncapi.yaml\n`);
    const ref = await casi(['diff', '--base', 'no-such-ref-anywhere']);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toBe('casi: --base no-such-ref-anywhere is neither a folder nor a git ref here\n');
    const failOn = await casi(['diff', '--base', half, '--fail-on', 'everything']);
    expect(failOn.code).toBe(2);
    const none = await casi(['diff']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Missing required argument: base');
  });
});

/** A throwaway git repository with our specs in spec/, committed and tagged `casi-v<version>`. */
function repository(name: string, version: string): { dir: string; git: (...args: string[]) => string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'spec'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=casi', '-c', 'user.email=casi@example.invalid', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(dir, 'spec/openapi.yaml'), ours.openapi.replace(/^( {2}version: ).*$/m, `$1${version}`));
  cpSync(SPEC.asyncapi, join(dir, 'spec/asyncapi.yaml'));
  git('add', 'spec');
  git('commit', '--quiet', '-m', 'specs');
  git('tag', `casi-v${version}`);
  return { dir, git };
}

/** Replaces `from` by `to` in the repository's spec/openapi.yaml. */
function edit(dir: string, from: string, to: string): void {
  const file = join(dir, 'spec/openapi.yaml');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const ADD_OPTIONAL: [string, string] = [
  "      properties:\n        agent_id:\n          $ref: '#/components/schemas/ConversationalAgentRef'",
  "      properties:\n        campaign:\n          type: string\n        agent_id:\n          $ref: '#/components/schemas/ConversationalAgentRef'",
];

describe('casi diff against a git ref', () => {
  it('reads the documents at the same paths as of the ref, and names the ref in the place of a removal', async () => {
    const { dir, git } = repository('ref', '1.0.0');
    edit(dir, LIMIT_USE, '');
    const run = await casi(['diff', '--base', 'HEAD', '--fail-on', 'breaking'], '', dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^breaking +HEAD:spec\/openapi\.yaml:\d+ {2}GET \/\w+: removed parameter limit \(query\)/m,
    );
    git('rm', '--quiet', '--cached', 'spec/asyncapi.yaml');
    git('commit', '--quiet', '-m', 'no asyncapi');
    const missing = await casi(['diff', '--base', 'HEAD'], '', dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('casi: --base HEAD has no spec/asyncapi.yaml\n');
  });
});

describe('casi release', () => {
  /** Releases in `dir` and returns the spec's version, the package's, and the CHANGELOG. */
  async function release(dir: string, ...args: string[]) {
    const run = await casi(['release', ...args], '', dir);
    expect(run.code, run.stderr).toBe(0);
    const specVersion = /^ {2}version: (.*)$/m.exec(readFileSync(join(dir, 'spec/openapi.yaml'), 'utf8'))?.[1];
    const pkg = JSON.parse(readFileSync(join(dir, 'generated/package.json'), 'utf8')) as { version: string };
    return {
      run,
      specVersion,
      packageVersion: pkg.version,
      changelog: readFileSync(join(dir, 'generated/CHANGELOG.md'), 'utf8'),
    };
  }

  it('a breaking change raises the major version, the same way every time', { timeout: 180_000 }, async () => {
    const { dir } = repository('major', '1.4.2');
    edit(dir, LIMIT_USE, '');
    const first = await release(dir);
    expect(first.specVersion).toBe('2.0.0');
    expect(first.packageVersion).toBe('2.0.0');
    expect(first.changelog).toMatch(/^# Changelog\n\n## 2\.0\.0\n\nCompared with casi-v1\.4\.2\.\n\n### GET \//);
    expect(first.changelog).toContain('- **Breaking:** removed parameter limit (query)');
    expect(first.run.stdout).toContain('git tag casi-v2.0.0');
    const again = await release(dir);
    expect(again.specVersion).toBe('2.0.0');
    expect(again.changelog).toBe(first.changelog);
    const check = await casi(['generate', '--check'], '', dir);
    expect(check.code, check.stderr).toBe(0);
  });

  it('an addition raises the minor version; any other change the patch; none, nothing', {
    timeout: 180_000,
  }, async () => {
    const minorRepo = repository('minor', '1.4.2');
    edit(minorRepo.dir, ...ADD_OPTIONAL);
    const minor = await release(minorRepo.dir);
    expect(minor.specVersion).toBe('1.5.0');
    expect(minor.changelog).toContain('### POST /conversations\n\n- added request body member campaign');
    const patchRepo = repository('patch', '1.4.2');
    edit(
      patchRepo.dir,
      'const: user.message.send\n        text:\n          type: "string"\n',
      'const: user.message.send\n        text:\n          type: ["string", "null"]\n',
    );
    const patch = await release(patchRepo.dir, '--base', 'casi-v1.4.2');
    expect(patch.specVersion).toBe('1.4.3');
    expect(patch.changelog).toContain('- changed payload type of payload.text');
    const noneRepo = repository('none', '1.4.2');
    const none = await casi(['release'], '', noneRepo.dir);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('casi: no changes against casi-v1.4.2; the version stays 1.4.2\n');
    expect(readFileSync(join(noneRepo.dir, 'spec/openapi.yaml'), 'utf8')).toBe(
      ours.openapi.replace(/^( {2}version: ).*$/m, '$11.4.2'),
    );
  });
});
