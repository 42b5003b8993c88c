/** The strict type-check every generated package must pass, in process, with one set of compiler options. */
import ts from 'typescript';

/** The options a user's project plausibly has: strict, NodeNext modules, DOM and Node types. */
const STRICT_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
};

/** Type-checks the `.ts` files under `dir` that the globs `include` match; returns the problems, formatted. */
export function compileStrict(dir: string, include: readonly string[] = ['src/**/*.ts']): string[] {
  const files = ts.sys.readDirectory(dir, ['.ts'], ['**/node_modules'], include);
  const { options, errors } = ts.convertCompilerOptionsFromJson(STRICT_OPTIONS, dir);
  if (errors.length > 0) return errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (files.length === 0) return [`no files match ${include.join(', ')} under ${dir}`];
  return ts
    .getPreEmitDiagnostics(ts.createProgram(files, options))
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
