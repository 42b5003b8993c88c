/** ts-morph helpers shared by the emitters: one project with fixed printer settings, and names. */
import type { Project as ProjectType, StatementStructures } from 'ts-morph';
import { emitPackages } from '../packages.js';
import { type EmittedFile, withHeader } from './files.js';

const { IndentationText, NewLineKind, Project, QuoteKind } = emitPackages.tsMorph;

/** An in-memory ts-morph project printing 2 spaces, single quotes and LF. */
export function createProject(): ProjectType {
  return new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      usePrefixAndSuffixTextForRename: false,
    },
  });
}

/**
 * Prints one TypeScript file from statement structures (in one pass: ts-morph re-parses a file after every
 * single insertion, so statements are never added one by one) and returns it with the generated header.
 */
export function emitTypeScript(
  project: ProjectType,
  path: string,
  statements: readonly StatementStructures[],
): EmittedFile {
  const file = project.createSourceFile(`/${path}`, { statements: [...statements] }, { overwrite: true });
  return withHeader(path, file.getFullText());
}

/** A string literal for generated code (single-quoted, escaped). */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A JSDoc text: trims, and keeps `*\/` from ending the comment. */
export function docText(text: string): string {
  return text.trim().replace(/\*\//g, '*\\/');
}
