/** Imports a TypeScript entry point (relative to the package root) from its cached bundle. */
export function importCompiled(entry: string): Promise<unknown>;
/** Requires a CommonJS entry (relative to the package root) from a cached bundle of it with its packages inlined. */
export function requireBundled(entry: string): Promise<unknown>;

/** Writes `file` through a temporary file renamed over it, so that no reader sees it half written. */
export function writeAtomically(file: string, text: string | Uint8Array): void;
