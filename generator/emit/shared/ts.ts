/** ts-morph helpers shared by the emitters: printing statement structures with fixed settings, and names. */
import type * as TsMorph from 'ts-morph';
import type { StatementStructures } from 'ts-morph';
import { requirePackage } from '../../require-package.js';
import { type EmittedFile, withHeader } from './files.js';

const tsMorph = requirePackage('ts-morph') as typeof TsMorph;
const { printStructure } = tsMorph;

/** ts-morph's structure kinds, for the emitters. */
export const { StructureKind, VariableDeclarationKind } = tsMorph;

/**
 * Prints one TypeScript file from statement structures (2 spaces, single quotes, LF) and returns it with the
 * generated header. The text is printed, not parsed into a project: nothing reads the file's syntax tree.
 */
export function emitTypeScript(path: string, statements: readonly StatementStructures[]): EmittedFile {
  const text = printStructure(
    { kind: StructureKind.SourceFile, statements: [...statements] },
    { indentNumberOfSpaces: 2, useSingleQuote: true, newLine: '\n' },
  );
  return withHeader(path, text);
}

/** A string literal for generated code (single-quoted, escaped). */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A property name for an object literal or type: as it is when it is an identifier, else a string literal. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/** A JSDoc text: trims, and keeps `*\/` from ending the comment. */
export function docText(text: string): string {
  return text.trim().replace(/\*\//g, '*\\/');
}
