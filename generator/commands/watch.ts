/** `casi generate --watch`: regenerates whenever a spec or a template changes, printing what changed and the timings. */
import { type FSWatcher, watch } from 'node:fs';
import { dirname, relative } from 'node:path';
import { formatDiagnostic, InputError } from '../diagnostics.js';
import type { GenerateOptions } from '../options.js';
import { buildModel, emitAll } from '../pipeline.js';
import { writeOutput } from '../write.js';

const DEBOUNCE_MS = 150;
const say = (text: string) => process.stderr.write(`casi: ${text}\n`);

/** One regeneration in this process (the modules stay loaded, so later runs are fast); errors are printed, not thrown. */
async function regenerate(options: GenerateOptions): Promise<void> {
  const started = performance.now();
  const timings: string[] = [];
  try {
    const onStage = (stage: string, ms: number) => timings.push(`${stage} ${ms.toFixed(0)} ms`);
    const { ir, diagnostics } = await buildModel(options, onStage);
    for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    const diff = await writeOutput(options.out, await emitAll(ir, options, onStage));
    const out = relative(process.cwd(), options.out) || '.';
    const changed = [...diff.changed, ...diff.missing, ...diff.stale].map((p) => `${out}/${p}`);
    const listed =
      changed.length > 6 ? `${changed.slice(0, 5).join(', ')} and ${changed.length - 5} more` : changed.join(', ');
    say(
      `${changed.length ? `updated ${listed}` : 'no file changed'} in ${(performance.now() - started).toFixed(0)} ms (${timings.join(', ')})`,
    );
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    say(`${error.message}; waiting for the next change`);
  }
}

/** Watches the two specs' folders and the templates; runs until interrupted (Ctrl-C), then returns 0. */
export async function runWatch(options: GenerateOptions): Promise<number> {
  await regenerate(options);
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const changedFiles = new Set<string>();
  const schedule = (file: string) => {
    changedFiles.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changedFiles].join(', ');
      changedFiles.clear();
      running = running.then(() => {
        say(`${files} changed`);
        return regenerate(options);
      });
    }, DEBOUNCE_MS);
  };
  const folders = [...new Set([dirname(options.openapi), dirname(options.asyncapi)])];
  const watchers: FSWatcher[] = [
    ...folders.map((folder) =>
      watch(
        folder,
        (_event, name) =>
          name && /\.(ya?ml|json)$/.test(name) && schedule(relative(process.cwd(), `${folder}/${name}`)),
      ),
    ),
    watch(
      options.templates,
      { recursive: true },
      (_event, name) => name?.endsWith('.ts') && schedule(`templates/${name}`),
    ),
  ];
  say(
    `watching ${[...folders, options.templates].map((f) => relative(process.cwd(), f) || '.').join(', ')}; Ctrl-C to stop`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const watcher of watchers) watcher.close();
  clearTimeout(timer);
  await running;
  return 0;
}
