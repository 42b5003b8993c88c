/** Reading the process environment where there is one (Node, Deno, Bun); browsers have none. */

/** The value of the environment variable `name`, or `undefined` where it is unset, empty, or there is no `process`. */
export function environmentVariable(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === undefined || value === '' ? undefined : value;
}
