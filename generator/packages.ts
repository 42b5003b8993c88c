/**
 * The packages that read the documents and compile their schemas (packages.cjs), from one cached bundle of them
 * (bin/compiled.mjs): one file and one code cache to load instead of a hundred modules.
 */
import { requireBundled } from '../bin/compiled.mjs';

interface Packages {
  ajv2020: typeof import('ajv/dist/2020.js');
  ajvStandalone: typeof import('ajv/dist/standalone/index.js');
  jsYaml: typeof import('js-yaml');
  yaml: typeof import('yaml');
}

export const packages = (await requireBundled('generator/packages.cjs')) as Packages;
