/**
 * Helpers shared by the emitters: TypeScript files as ts-morph statement structures (printed by print.ts, in the
 * worker when the command has one), and names. Building structures loads nothing of ts-morph.
 */
import type {
  VariableDeclarationKind as DeclarationKinds,
  StructureKind as Kinds,
  StatementStructures,
} from 'ts-morph';

/**
 * The values of ts-morph's `StructureKind` that the emitters use, as its declarations give them (ts-structures.test.ts
 * compares them with ts-morph's), so that the main thread need not load ts-morph and its TypeScript to write them.
 */
export const StructureKind = {
  ExportDeclaration: 11 as Kinds.ExportDeclaration,
  Function: 13 as Kinds.Function,
  ImportDeclaration: 16 as Kinds.ImportDeclaration,
  Interface: 19 as Kinds.Interface,
  TypeAlias: 38 as Kinds.TypeAlias,
  VariableStatement: 41 as Kinds.VariableStatement,
} as const;

/** ts-morph's `VariableDeclarationKind.Const`, likewise. */
export const VariableDeclarationKind = { Const: 'const' as DeclarationKinds.Const } as const;

/** A TypeScript file to print: its statements, after `prefix` (text printed already) when there is one. */
export interface TypeScriptFile {
  readonly path: string;
  readonly statements: readonly StatementStructures[];
  readonly prefix?: string;
}

/** The TypeScript file at `path` of `statements` (see TypeScriptFile). */
export function emitTypeScript(
  path: string,
  statements: readonly StatementStructures[],
  prefix?: string,
): TypeScriptFile {
  return prefix === undefined ? { path, statements } : { path, statements, prefix };
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
