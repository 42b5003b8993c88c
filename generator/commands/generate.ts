/** `casi generate`: runs the pipeline and writes `generated/`, or with `--check` reports what is stale. */
import { relative } from 'node:path';
import { formatDiagnostic, UsageError } from '../diagnostics.js';
import { resolveOptions } from '../options.js';
import { startHelper } from '../worker/start.js';
import { diffOutput, writeOutput } from '../write.js';

export interface GenerateArgs {
  readonly openapi?: string | undefined;
  readonly asyncapi?: string | undefined;
  readonly out: string;
  readonly check: boolean;
  readonly name?: string | undefined;
  readonly watch?: boolean;
}

/** npm's package name rule: lower case, an optional scope, URL-safe characters, at most 214 characters. */
const NPM_NAME = /^(?=.{1,214}$)(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Returns the exit code: 0 done (or up to date), 1 stale output or spec errors. */
export async function runGenerate(args: GenerateArgs): Promise<number> {
  const options = resolveOptions(args);
  if (options.name !== undefined && !NPM_NAME.test(options.name))
    throw new UsageError(
      `--name ${options.name} is not an npm package name (lower case, like my-api or @scope/my-api)`,
    );
  if (args.watch && args.check) throw new UsageError('--watch and --check do not go together');
  if (args.watch) return (await import('./watch.js')).runWatch(options);
  const started = performance.now();
  const progress = (stage: string, ms: number) =>
    process.stderr.write(`casi: ${stage.padEnd(16)} ${ms.toFixed(0).padStart(5)} ms\n`);
  // The worker starts first: it lints while the emitters load, then prints the REST types.
  const helper = startHelper(options, 'structure', progress, true);
  const { generate } = await import('../pipeline.js');
  const { files, diagnostics } = await generate(options, progress, helper);
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const out = relative(process.cwd(), options.out) || '.';
  if (args.check) {
    const diff = await diffOutput(options.out, files);
    const stale = [
      ...diff.changed.map((p) => `${out}/${p} (differs)`),
      ...diff.missing.map((p) => `${out}/${p} (missing)`),
      ...diff.stale.map((p) => `${out}/${p} (no longer generated)`),
    ];
    if (stale.length > 0) {
      process.stderr.write(
        `casi: ${out}/ is stale; run \`npm run generate\`:\n${stale.map((s) => `  ${s}`).join('\n')}\n`,
      );
      return 1;
    }
    process.stdout.write(`${out}/ is up to date (${files.length} files)\n`);
    return 0;
  }
  const diff = await writeOutput(options.out, files);
  const touched = diff.changed.length + diff.missing.length + diff.stale.length;
  const total = (performance.now() - started).toFixed(0);
  process.stdout.write(`casi: wrote ${out}/ — ${files.length} files, ${touched} changed, in ${total} ms\n`);
  return 0;
}
