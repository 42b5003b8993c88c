/**
 * The packages of the generator's stages (packages.cjs), from one cached bundle of them (bin/compiled.mjs): one file
 * and one code cache to load instead of some five hundred modules.
 */
import { requireBundled } from '../bin/compiled.mjs';

interface Packages {
  tsMorph: typeof import('ts-morph');
  openapiTypescript: typeof import('openapi-typescript');
  ajv2020: typeof import('ajv/dist/2020.js');
  ajvStandalone: typeof import('ajv/dist/standalone/index.js');
  jsYaml: typeof import('js-yaml');
  yaml: typeof import('yaml');
}

const packages = (await requireBundled('generator/packages.cjs')) as Packages;

export const { tsMorph, openapiTypescript, ajv2020, ajvStandalone, jsYaml, yaml } = packages;
