/** `npm run docs` as a process: `--help` exits 0, usage errors exit 2, unreadable specs exit 1 with the reason, nothing written. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function docs(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'generator/docs/main.ts', ...args], {
      cwd: ROOT,
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

describe('npm run docs', () => {
  const out = mkdtempSync(join(tmpdir(), 'casi-docs-cli-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('refuses an unknown flag with exit code 2 and the usage', async () => {
    const result = await docs(['--nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--nope'");
    expect(result.stderr).toContain('usage: npm run docs');
  }, 60_000);

  it('prints the usage for --help and -h, exit 0, building nothing', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await docs([flag, '--out', join(out, 'help')]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('usage: npm run docs');
      expect(existsSync(join(out, 'help'))).toBe(false);
    }
  }, 60_000);

  it('exits 1 naming the spec it cannot read, and writes nothing', async () => {
    const target = join(out, 'site');
    const result = await docs(['--openapi', join(out, 'missing.yaml'), '--out', target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('missing.yaml');
    expect(existsSync(target)).toBe(false);
  }, 60_000);
});
