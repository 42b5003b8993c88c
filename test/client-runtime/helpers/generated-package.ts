/** Generates a package from one OpenAPI document into a folder under the project's tmp/, for tests to import. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOptions } from '../../../generator/options.js';
import { generate } from '../../../generator/pipeline.js';
import { writeOutput } from '../../../generator/write.js';
import { ROOT } from '../../generator/helpers.js';

/** A generated package: its folder, its client module (imported), and `remove()`. */
export interface GeneratedPackage {
  readonly dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: the generated module, imported at run time.
  readonly clientModule: any;
  remove(): void;
}

/** Generates the package of `openapi` (under tmp/, so that its code resolves the project's packages). */
export async function generatePackage(openapi: string, prefix: string): Promise<GeneratedPackage> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', `${prefix}-`));
  const options = resolveOptions({ openapi, out: dir });
  await writeOutput(options.out, (await generate(options)).files);
  return {
    dir,
    clientModule: await import(join(dir, 'src/client.gen.ts')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
