/** `casi check`: validates both documents and prints every diagnostic as file:line; `--fix` first fills event lists. */
import { relative } from 'node:path';
import { hasErrors } from '../check/index.js';
import { formatDiagnostic } from '../diagnostics.js';
import { type ReadSpecs, readSpecs } from '../load/index.js';
import { resolveOptions, usedSpecs } from '../options.js';
import { startLint } from '../worker/start.js';
import { fixEventLists } from './fix-event-lists.js';

/** Returns 1 when any diagnostic is an error, else 0 (warnings are printed but do not fail). */
export async function runCheck(args: {
  openapi?: string | undefined;
  asyncapi?: string | undefined;
  fix?: boolean | undefined;
}): Promise<number> {
  const options = resolveOptions(args);
  let read: ReadSpecs | undefined;
  if (args.fix === true) {
    read = await readSpecs(options.openapi, options.asyncapi);
    // Read again only when the fixes have changed the files.
    if ((await fixEventLists(read)) > 0) read = await readSpecs(options.openapi, options.asyncapi);
  }
  const linting = startLint(options, 'style');
  const { loadAndCheck } = await import('../pipeline.js');
  const { diagnostics } = await loadAndCheck(options, undefined, linting, read);
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const files = usedSpecs(options)
    .map((f) => relative(process.cwd(), f))
    .join(', ');
  process.stdout.write(`${files}: ${errors} error(s), ${diagnostics.length - errors} warning(s)\n`);
  return hasErrors(diagnostics) ? 1 : 0;
}
