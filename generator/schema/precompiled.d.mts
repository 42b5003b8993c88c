/** A validate function of ajv standalone code: true when `data` is valid. */
export type Verdict = (data: unknown) => boolean;

/** The validate function of `schema`, from the cache under node_modules/.cache/casi/<folder>/ or compiled now. */
export function precompiled(options: {
  folder: string;
  key: string;
  schema: unknown;
  compile: () => { ajv: unknown; validate: Verdict; standalone: (ajv: never, validate: never) => string };
  from: { resolve(id: string): string };
}): Verdict;

/** Where the code for `schema` under `key` is kept. */
export function cachedFile(folder: string, key: string, schema: unknown): string;
