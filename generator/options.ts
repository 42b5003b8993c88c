/** The generator's options: one object, fully defaulted, built once and passed down. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './diagnostics.js';
import { TOOLKIT_ROOT } from './toolkit-root.js';

export { TOOLKIT_ROOT } from './toolkit-root.js';

export interface GenerateOptions {
  /** The OpenAPI document, if one is used. */
  readonly openapi: string | undefined;
  /** The AsyncAPI document, if one is used. */
  readonly asyncapi: string | undefined;
  readonly out: string;
  readonly templates: string;
  /** The generated package's name, over the one the documents give (`--name`). */
  readonly name?: string | undefined;
}

/** The documents used when neither is named: those of these that exist. */
const DEFAULT_SPECS = { openapi: 'spec/openapi.yaml', asyncapi: 'spec/asyncapi.yaml' } as const;

/**
 * Fills in defaults: the documents named, or, when neither is, `spec/openapi.yaml` and `spec/asyncapi.yaml`
 * (whichever exist); output in `generated/`; the toolkit's own templates.
 */
export function resolveOptions(partial: Partial<GenerateOptions> = {}): GenerateOptions {
  const named = partial.openapi !== undefined || partial.asyncapi !== undefined;
  const pick = (given: string | undefined, fallback: string) =>
    given !== undefined ? resolve(given) : !named && existsSync(fallback) ? resolve(fallback) : undefined;
  const openapi = pick(partial.openapi, DEFAULT_SPECS.openapi);
  const asyncapi = pick(partial.asyncapi, DEFAULT_SPECS.asyncapi);
  if (openapi === undefined && asyncapi === undefined)
    throw new UsageError(
      `no document to read: name one with --openapi or --asyncapi (${DEFAULT_SPECS.openapi} and ${DEFAULT_SPECS.asyncapi} do not exist here)`,
    );
  return {
    openapi,
    asyncapi,
    out: resolve(partial.out ?? 'generated'),
    templates: resolve(partial.templates ?? resolve(TOOLKIT_ROOT, 'templates')),
    name: partial.name,
  };
}

/** The documents used, as given (for messages and headers). */
export function usedSpecs(options: Pick<GenerateOptions, 'openapi' | 'asyncapi'>): string[] {
  return [options.openapi, options.asyncapi].filter((f): f is string => f !== undefined);
}
