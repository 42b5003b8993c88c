/** Writing the output folder: only files `generate` wrote (its manifest) are overwritten or removed; targets checked first. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmittedFile, GENERATED_HEADER, withHeader } from '../../generator/emit/shared/files.js';
import { diffOutput, MANIFEST, OutputError, writeOutput } from '../../generator/write.js';
import { casi, fixture } from './helpers.js';

const work = mkdtempSync(join(tmpdir(), 'casi-write-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let folders = 0;
/** A new folder under `work`, holding `files` (path → content). */
function folder(files: Record<string, string> = {}): string {
  const dir = join(work, `f${folders++}`);
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const pkg = (version: string): EmittedFile => ({
  path: 'package.json',
  content: `{"//": "${GENERATED_HEADER}", "version": "${version}"}\n`,
});
const emitted = (version: string): EmittedFile[] => [
  pkg(version),
  withHeader('src/a.gen.ts', `export const a = '${version}';`),
  withHeader('src/b.gen.ts', `export const b = '${version}';`),
];
const HEADED = `// ${GENERATED_HEADER}\nexport {};\n`;

/** The OutputError `run` throws. */
async function refusal(run: Promise<unknown>): Promise<OutputError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutputError);
  return error as OutputError;
}

describe('writeOutput', () => {
  it('writes a new folder with a sorted manifest of what it wrote, and is then up to date', async () => {
    const out = join(work, 'new', 'out');
    const diff = await writeOutput(out, emitted('1'));
    expect(diff).toEqual({ changed: [], missing: ['package.json', 'src/a.gen.ts', 'src/b.gen.ts'], stale: [] });
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'));
    expect(manifest.files).toEqual(['package.json', 'src/a.gen.ts', 'src/b.gen.ts']);
    expect(await diffOutput(out, emitted('1'))).toEqual({ changed: [], missing: [], stale: [] });
  });

  it('refuses a folder that is not empty and not an output, naming the folder and a file; writes nothing', async () => {
    const out = folder({ 'package.json': '{"name": "mine"}\n', 'README.md': '# mine\n', 'test/snap.ts': HEADED });
    const error = await refusal(writeOutput(out, emitted('1')));
    expect(error.message).toContain(`refusing to write into ${out}`);
    expect(error.message).toMatch(/it holds (README\.md|package\.json)/);
    expect(readFileSync(join(out, 'package.json'), 'utf8')).toBe('{"name": "mine"}\n');
    expect(readFileSync(join(out, 'test/snap.ts'), 'utf8')).toBe(HEADED);
    expect(existsSync(join(out, MANIFEST))).toBe(false);
    expect(existsSync(join(out, 'src'))).toBe(false);
  });

  it('removes only stale files its manifest lists; a file carrying the header that it did not write stays', async () => {
    const out = join(work, 'stale');
    await writeOutput(out, emitted('1'));
    writeFileSync(join(out, 'src/copied.ts'), HEADED);
    writeFileSync(join(out, 'notes.md'), 'mine\n');
    const diff = await writeOutput(out, emitted('2').slice(0, 2));
    expect(diff.stale).toEqual(['src/b.gen.ts']);
    expect(existsSync(join(out, 'src/b.gen.ts'))).toBe(false);
    expect(readFileSync(join(out, 'src/copied.ts'), 'utf8')).toBe(HEADED);
    expect(readFileSync(join(out, 'notes.md'), 'utf8')).toBe('mine\n');
    expect(JSON.parse(readFileSync(join(out, MANIFEST), 'utf8')).files).toEqual(['package.json', 'src/a.gen.ts']);
  });

  it('refuses to overwrite a file its manifest does not list, and writes nothing', async () => {
    const out = join(work, 'foreign-file');
    await writeOutput(out, emitted('1'));
    writeFileSync(join(out, 'src/c.gen.ts'), 'mine\n');
    const error = await refusal(writeOutput(out, [...emitted('2'), withHeader('src/c.gen.ts', '')]));
    expect(error.message).toContain(`refusing to overwrite ${join(out, 'src/c.gen.ts')}`);
    expect(error.message).toContain(`${MANIFEST} does not list it`);
    expect(readFileSync(join(out, 'src/a.gen.ts'), 'utf8')).toContain("'1'");
    expect(readFileSync(join(out, 'src/c.gen.ts'), 'utf8')).toBe('mine\n');
  });

  it('takes over an output written before manifests (its package.json carries the header)', async () => {
    const out = folder({
      'package.json': pkg('0').content,
      'src/a.gen.ts': HEADED,
      'src/old.gen.ts': HEADED,
      'src/mine.ts': 'mine\n',
      'dist/a.gen.js': HEADED,
    });
    const diff = await writeOutput(out, emitted('1'));
    expect(diff.stale).toEqual(['src/old.gen.ts']);
    expect(readdirSync(join(out, 'src')).sort()).toEqual(['a.gen.ts', 'b.gen.ts', 'mine.ts']);
    expect(existsSync(join(out, 'dist/a.gen.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, MANIFEST), 'utf8')).files).toEqual([
      'package.json',
      'src/a.gen.ts',
      'src/b.gen.ts',
    ]);
  });

  it('checks every target first: a folder where a file goes, or a file where a folder goes, writes nothing', async () => {
    const out = join(work, 'blocked');
    await writeOutput(out, emitted('1'));
    rmSync(join(out, 'src/b.gen.ts'));
    mkdirSync(join(out, 'src/b.gen.ts'));
    const error = await refusal(writeOutput(out, emitted('2')));
    expect(error.message).toBe(`cannot write ${join(out, 'src/b.gen.ts')}: it is a folder; nothing was written`);
    expect(readFileSync(join(out, 'src/a.gen.ts'), 'utf8')).toContain("'1'");

    rmSync(join(out, 'src'), { recursive: true });
    writeFileSync(join(out, 'src'), 'a file\n');
    const nested = await refusal(writeOutput(out, emitted('2')));
    expect(nested.message).toContain(`${join(out, 'src')} is not a folder; nothing was written`);
    expect(readFileSync(join(out, 'package.json'), 'utf8')).toBe(pkg('1').content);

    const file = join(work, 'a-file');
    writeFileSync(file, 'x\n');
    expect((await refusal(writeOutput(file, emitted('1')))).message).toBe(
      `cannot write into ${file}: it is not a folder`,
    );
  });

  it('refuses a manifest that names files outside the folder', async () => {
    const out = folder({ [MANIFEST]: JSON.stringify({ files: ['../outside.txt'] }) });
    writeFileSync(join(work, 'outside.txt'), 'keep\n');
    expect((await refusal(writeOutput(out, emitted('1')))).message).toContain('is not a manifest casi wrote');
    expect(readFileSync(join(work, 'outside.txt'), 'utf8')).toBe('keep\n');
  });
});

describe('casi generate --out', () => {
  const spec = fixture('widgets');
  const args = ['--openapi', spec.openapi, '--asyncapi', spec.asyncapi];

  it('refuses "." in a project (exit 1), leaving its package.json, README and header-carrying files alone', async () => {
    const project = folder({
      'package.json': '{"name": "mine"}\n',
      'README.md': '# mine\n',
      'tsconfig.json': '{}\n',
      'test/__snapshots__/a.ts.snap': HEADED,
    });
    const result = await casi(['generate', ...args, '--out', '.'], '', project);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/casi: refusing to write into .*: the folder is not empty and casi generate did not/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe('{"name": "mine"}\n');
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# mine\n');
    expect(readFileSync(join(project, 'test/__snapshots__/a.ts.snap'), 'utf8')).toBe(HEADED);
    expect(existsSync(join(project, 'src'))).toBe(false);
  }, 60_000);

  it('is a usage error when empty (exit 2), and an existing file is exit 1 without a stack', async () => {
    const empty = await casi(['generate', ...args, '--out', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('casi: --out needs a value');
    const file = join(work, 'afile');
    writeFileSync(file, '');
    const result = await casi(['generate', ...args, '--out', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`casi: cannot write into ${file}: it is not a folder`);
    expect(result.stderr).not.toMatch(/^\s+at |EEXIST/m);
  }, 60_000);

  it('names a folder in the way of a file (exit 1) and writes nothing', async () => {
    const out = join(work, 'g3');
    mkdirSync(join(out, 'src/types.gen.ts'), { recursive: true });
    writeFileSync(join(out, MANIFEST), JSON.stringify({ files: [] }));
    const result = await casi(['generate', ...args, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`casi: cannot write ${join(out, 'src/types.gen.ts')}: it is a folder`);
    expect(result.stderr).not.toMatch(/^\s+at |EISDIR/m);
    expect(readdirSync(out).sort()).toEqual([MANIFEST, 'src']);
    expect(readdirSync(join(out, 'src'))).toEqual(['types.gen.ts']);
  }, 60_000);
});
