/** Validates the AsyncAPI document (and the OpenAPI schemas it references) with `@asyncapi/parser`. */
import { fromFile, Parser } from '@asyncapi/parser';
import type { Diagnostic } from '../diagnostics.js';
import type { SourceDocument } from '../load/index.js';
import { toPointer } from '../load/source-map.js';

/** Parses and validates; parser errors (severity 0) are errors, its warnings (1) are warnings, hints are dropped. */
export async function checkAsyncApi(doc: SourceDocument): Promise<Diagnostic[]> {
  const { diagnostics } = await fromFile(new Parser(), doc.file).parse();
  return diagnostics
    .filter((d) => d.severity <= 1)
    .map((d) => {
      const pointer = toPointer(d.path.map(String));
      const line = d.range?.start
        ? { line: d.range.start.line + 1, column: d.range.start.character + 1 }
        : doc.locate(pointer);
      return {
        severity: d.severity === 0 ? 'error' : 'warning',
        file: d.source && d.source !== doc.file && !d.source.startsWith('/') ? doc.file : (d.source ?? doc.file),
        ...line,
        pointer,
        message: d.message,
        rule: `asyncapi/${String(d.code)}`,
      } satisfies Diagnostic;
    });
}
