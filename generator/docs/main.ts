/** `npm run docs [-- --out DIR --openapi FILE --asyncapi FILE]`: builds the HTML reference (default into `docs/`). */
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic, InputError } from '../diagnostics.js';
import { buildDocs, DOCS_DEFAULTS } from './build.js';
import { RedocError } from './redoc.js';

const USAGE = 'usage: npm run docs -- [--out docs] [--openapi spec/openapi.yaml] [--asyncapi spec/asyncapi.yaml]\n';

/** Runs the builder with the command line's options; resolves to the exit code (0 built or help, 1 failed, 2 usage). */
export async function main(argv: readonly string[]): Promise<number> {
  let values: { out?: string; openapi?: string; asyncapi?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        out: { type: 'string' },
        openapi: { type: 'string' },
        asyncapi: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`casi docs: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}Builds the HTML reference of both specs (REST and events) into --out.\n`);
    return 0;
  }
  const started = performance.now();
  try {
    const { help: _, ...paths } = values;
    const result = await buildDocs({ ...DOCS_DEFAULTS, ...paths });
    const warnings = result.diagnostics.length;
    if (warnings > 0)
      process.stderr.write(`casi docs: the specs have ${warnings} warning(s); \`npm run check\` lists them\n`);
    const files = result.files.map((f) => relative(process.cwd(), f)).join(', ');
    process.stdout.write(
      `Built the reference in ${Math.round(performance.now() - started)} ms: ${files}\n` +
        `(${result.operations} operations, ${result.inferredOperations.length} of them inferred; ${result.events} event types)\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
      process.stderr.write(`casi docs: ${error.message}\n`);
      return 1;
    }
    if (error instanceof RedocError) {
      process.stderr.write(`${error.output}\ncasi docs: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
