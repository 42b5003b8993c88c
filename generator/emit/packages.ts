/**
 * The packages the emitters print TypeScript with (packages.cjs), from one cached bundle of them (bin/compiled.mjs):
 * one file and one code cache to load instead of some four hundred modules. `casi validate` does not load them.
 */
import { requireBundled } from '../../bin/compiled.mjs';

type OpenapiTypescript = typeof import('openapi-typescript');

interface Packages {
  tsMorph: typeof import('ts-morph');
  /** The parts of openapi-typescript casi calls (see packages.cjs). */
  openapiTypescript: Pick<OpenapiTypescript, 'transformSchema' | 'scanDiscriminators' | 'resolveRef' | 'astToString'>;
  /** Runs `load` with ts-morph's TypeScript as the `typescript` that openapi-typescript requires. */
  withTypescriptOf<T>(tsMorph: Packages['tsMorph'], load: () => T): T;
}

export const emitPackages = (await requireBundled('generator/emit/packages.cjs')) as Packages;
