/**
 * The packages the emitters print TypeScript with (packages.cjs), from one cached bundle of them (bin/compiled.mjs):
 * one file and one code cache to load instead of some four hundred modules. `casi validate` does not load them.
 */
import { requireBundled } from '../../bin/compiled.mjs';

interface Packages {
  tsMorph: typeof import('ts-morph');
  openapiTypescript: typeof import('openapi-typescript');
}

export const emitPackages = (await requireBundled('generator/emit/packages.cjs')) as Packages;
