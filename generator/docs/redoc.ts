/**
 * Builds the REST page with `redocly build-docs --inlineBundle` (Redocly CLI, a devDependency): Redoc's script is
 * embedded, so the page hydrates offline (without the flag it loads `redoc.standalone.js` from cdn.redocly.com).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { JsonSchema } from '../ir/model.js';

const run = promisify(execFile);

/** Longest time `build-docs` may take. */
export const REDOC_TIMEOUT_MS = 120_000;

/** `build-docs` failed; `output` is what it printed. */
export class RedocError extends Error {
  override readonly name = 'RedocError';
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Redoc shows the `x-codeSamples` of the languages its configuration lists only (by default curl, JavaScript, …,
 * not TypeScript): the operations' samples are curl and TypeScript, then Redoc's request payload.
 */
const REDOCLY_CONFIG = `openapi:
  codeSamples:
    languages:
      - lang: curl
      - lang: TypeScript
      - lang: Payload
`;

/** The Redocly CLI's entry script, from `node_modules`. */
export function redoclyCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
}

/** Renders `document` (an OpenAPI object) into the self-contained HTML file `outFile`. */
export async function buildRedocPage(document: JsonSchema, outFile: string, title: string): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'casi-docs-'));
  try {
    const input = join(work, 'openapi.json');
    const config = join(work, 'redocly.yaml');
    await writeFile(input, JSON.stringify(document));
    await writeFile(config, REDOCLY_CONFIG);
    const args = [redoclyCli(), 'build-docs', input, '--inlineBundle', '--config', config];
    args.push('--output', outFile, '--title', title);
    // Run from the empty work folder so no redocly.yaml around is picked up; no telemetry, no update check.
    await run(process.execPath, args, {
      cwd: work,
      timeout: REDOC_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      },
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new RedocError(`redocly build-docs failed: ${error.message}`, `${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
