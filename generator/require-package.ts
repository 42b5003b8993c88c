/**
 * `require` for the CommonJS packages the generator uses. Importing a CommonJS package into an ES module makes Node
 * parse its source (and that of every module it re-exports) for export names first; `require` skips that work.
 */
import { createRequire } from 'node:module';

export const requirePackage = createRequire(import.meta.url);
