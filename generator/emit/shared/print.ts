/** Prints the TypeScript files of the emitters with ts-morph (2 spaces, single quotes, LF), with the generated header. */
import type * as TsMorph from 'ts-morph';
import { requirePackage } from '../../require-package.js';
import { type EmittedFile, withHeader } from './files.js';
import type { TypeScriptFile } from './ts.js';

const { printStructure, StructureKind } = requirePackage('ts-morph') as typeof TsMorph;

/** The text is printed, not parsed into a project: nothing reads the file's syntax tree. */
export function printTypeScript(file: TypeScriptFile): EmittedFile {
  const text = printStructure(
    { kind: StructureKind.SourceFile, statements: [...file.statements] },
    { indentNumberOfSpaces: 2, useSingleQuote: true, newLine: '\n' },
  );
  return withHeader(file.path, file.prefix === undefined ? text : `${file.prefix}\n${text.trimEnd()}\n`);
}
