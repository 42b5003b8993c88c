/** `casi generate --watch`: regenerates whenever a spec or a template changes, printing what changed and the timings. */
import { type FSWatcher, watch } from 'node:fs';
import { dirname, relative } from 'node:path';
import { formatDiagnostic, InputError } from '../diagnostics.js';
import { type GenerateOptions, usedSpecs } from '../options.js';
import { generate } from '../pipeline.js';
import { OutputError, writeOutput } from '../write.js';

const DEBOUNCE_MS = 150;
const say = (text: string) => process.stderr.write(`casi: ${text}\n`);

/**
 * One regeneration in this process, as `casi generate` runs it; the modules stay loaded, so later runs are fast.
 * Errors are printed, not thrown.
 * Resolves with the files the specs were read from, when they could be read.
 */
async function regenerate(options: GenerateOptions): Promise<readonly string[]> {
  const started = performance.now();
  const timings: string[] = [];
  try {
    const onStage = (stage: string, ms: number) => timings.push(`${stage} ${ms.toFixed(0)} ms`);
    const { files, diagnostics, sources } = await generate(options, onStage);
    for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    const diff = await writeOutput(options.out, files);
    const out = relative(process.cwd(), options.out) || '.';
    const changed = [...diff.changed, ...diff.missing, ...diff.stale].map((p) => `${out}/${p}`);
    const listed =
      changed.length > 6 ? `${changed.slice(0, 5).join(', ')} and ${changed.length - 5} more` : changed.join(', ');
    say(
      `${changed.length ? `updated ${listed}` : 'no file changed'} in ${(performance.now() - started).toFixed(0)} ms (${timings.join(', ')})`,
    );
    return sources;
  } catch (error) {
    if (!(error instanceof InputError || error instanceof OutputError)) throw error;
    if (error instanceof InputError)
      for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    say(`${error.message}; waiting for the next change`);
    return [];
  }
}

/**
 * Watches the folders of the two specs and of every file they reference (added as references appear), and the
 * templates; runs until interrupted (Ctrl-C), then returns 0.
 */
export async function runWatch(options: GenerateOptions): Promise<number> {
  const specFolders = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const changedFiles = new Set<string>();
  const schedule = (file: string) => {
    changedFiles.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changedFiles].join(', ');
      changedFiles.clear();
      running = running.then(async () => {
        say(`${files} changed`);
        watchFoldersOf(await regenerate(options));
      });
    }, DEBOUNCE_MS);
  };
  const watchFoldersOf = (files: readonly string[]) => {
    for (const folder of files.map((file) => dirname(file))) {
      if (specFolders.has(folder)) continue;
      const onChange = (_event: string, name: string | null) =>
        name && /\.(ya?ml|json)$/.test(name) && schedule(relative(process.cwd(), `${folder}/${name}`));
      specFolders.set(folder, watch(folder, onChange));
    }
  };
  watchFoldersOf([...usedSpecs(options), ...(await regenerate(options))]);
  const templates = watch(
    options.templates,
    { recursive: true },
    (_event, name) => name?.endsWith('.ts') && schedule(`templates/${name}`),
  );
  say(
    `watching ${[...specFolders.keys(), options.templates].map((f) => relative(process.cwd(), f) || '.').join(', ')}; Ctrl-C to stop`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const watcher of [...specFolders.values(), templates]) watcher.close();
  clearTimeout(timer);
  await running;
  return 0;
}
