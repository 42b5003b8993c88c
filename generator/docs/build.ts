/**
 * The docs builder: load → check → ir, then three self-contained pages into one folder — `index.html`,
 * `rest.html` (Redoc, from the marked OpenAPI document) and `events.html` (our renderer, from the IR).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkSpecs, hasErrors } from '../check/index.js';
import { type Diagnostic, InputError } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import { loadSpecs } from '../load/index.js';
import { addCodeSamples } from './code-samples.js';
import { buildEventsDoc } from './events-model.js';
import { renderEventsPage } from './events-page.js';
import { renderIndexPage } from './index-page.js';
import { buildRedocPage } from './redoc.js';
import { prepareRestDocument } from './rest-document.js';

/** Where the specs are and where the pages go; relative paths are resolved against the working directory. */
export interface DocsOptions {
  readonly openapi: string;
  readonly asyncapi: string;
  readonly out: string;
}

/** The defaults of `npm run docs`. */
export const DOCS_DEFAULTS: DocsOptions = { openapi: 'spec/openapi.yaml', asyncapi: 'spec/asyncapi.yaml', out: 'docs' };

/** The page file names inside the output folder. */
export const DOCS_PAGES = { index: 'index.html', rest: 'rest.html', events: 'events.html' } as const;

/** What was built. */
export interface DocsResult {
  /** Absolute paths of the written pages. */
  readonly files: readonly string[];
  /** Warnings of the check (errors stop the build). */
  readonly diagnostics: readonly Diagnostic[];
  readonly operations: number;
  readonly events: number;
  readonly inferredOperations: readonly string[];
}

/** Builds the reference into `options.out` (created if needed); throws `InputError` when a spec has errors. */
export async function buildDocs(options: Partial<DocsOptions> = {}): Promise<DocsResult> {
  const { openapi, asyncapi, out } = { ...DOCS_DEFAULTS, ...options };
  const specs = await loadSpecs(openapi, asyncapi);
  const diagnostics = await checkSpecs(specs);
  if (hasErrors(diagnostics)) throw new InputError('the specs have errors; no docs were built', diagnostics);
  const ir = buildIr(specs);
  const eventsDoc = buildEventsDoc(ir, specs.asyncapi);
  const rest = prepareRestDocument(ir.openapi);
  addCodeSamples(rest.document, ir);
  const dir = resolve(out);
  await mkdir(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  await Promise.all([
    writeFile(file(DOCS_PAGES.events), renderEventsPage(eventsDoc)),
    writeFile(
      file(DOCS_PAGES.index),
      renderIndexPage(eventsDoc, {
        title: ir.title,
        operations: ir.operations.length,
        inferredOperations: rest.inferredOperations.length,
      }),
    ),
    buildRedocPage(rest.document, file(DOCS_PAGES.rest), `${ir.title} — REST API`),
  ]);
  return {
    files: Object.values(DOCS_PAGES).map(file),
    diagnostics: diagnostics.filter((d) => d.severity !== 'error'),
    operations: ir.operations.length,
    events: ir.events.length,
    inferredOperations: rest.inferredOperations,
  };
}
