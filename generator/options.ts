/** The generator's options: one object, fully defaulted, built once and passed down. */
import { resolve } from 'node:path';
import { TOOLKIT_ROOT } from './toolkit-root.js';

export { TOOLKIT_ROOT } from './toolkit-root.js';

export interface GenerateOptions {
  readonly openapi: string;
  readonly asyncapi: string;
  readonly out: string;
  readonly templates: string;
}

/** Fills in defaults: the specs in `spec/`, output in `generated/`, the toolkit's own templates. */
export function resolveOptions(partial: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    openapi: resolve(partial.openapi ?? 'spec/openapi.yaml'),
    asyncapi: resolve(partial.asyncapi ?? 'spec/asyncapi.yaml'),
    out: resolve(partial.out ?? 'generated'),
    templates: resolve(partial.templates ?? resolve(TOOLKIT_ROOT, 'templates')),
  };
}
