/**
 * The generated client's public declarations compile in a project without `@types/node` (a browser app): the
 * `.d.ts` files of the client entry, emitted with the package's own options, are checked with `"types": []`.
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const GENERATED = resolve('generated');
/** Where the declarations would be written: a folder that does not exist; they are kept in memory. */
const OUT = resolve(GENERATED, '.declarations-check');

/** The `.d.ts` files of the client entry, by absolute path, as `tsc -p generated/tsconfig.json` writes them. */
function emitDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(GENERATED, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('generated/tsconfig.json is unreadable');
  const options = { ...config.options, outDir: OUT, declaration: true, emitDeclarationOnly: true, noEmit: false };
  const program = ts.createProgram([resolve(GENERATED, 'src/client.gen.ts')], options);
  const files = new Map<string, string>();
  const result = program.emit(undefined, (name, text) => files.set(resolve(name), text));
  expect(result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  return files;
}

/** The diagnostics of a browser project (DOM libs, no `@types/*`) that imports `entry` from `files`. */
function checkWithoutNodeTypes(files: Map<string, string>, entry: string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    skipDefaultLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const folders = new Set([...files.keys()].map((file) => dirname(file)));
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(resolve(name)) ?? readFile(name);
  host.fileExists = (name) => files.has(resolve(name)) || fileExists(name);
  host.directoryExists = (name) =>
    [...folders].some((folder) => folder === resolve(name) || folder.startsWith(`${resolve(name)}/`)) ||
    (directoryExists?.(name) ?? true);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(resolve(name));
    return text === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram([entry], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the client declarations', () => {
  it('compile without @types/node and name no NodeJS type', () => {
    const files = emitDeclarations();
    const entry = resolve(OUT, 'client.gen.d.ts');
    expect(files.has(entry)).toBe(true);
    expect(checkWithoutNodeTypes(files, entry)).toEqual([]);
    const client = files.get(entry) ?? '';
    expect(client).not.toMatch(/NodeJS\./);
    expect(client).toMatch(/export type CasiApiError = ApiError</);
  }, 60_000);
});
