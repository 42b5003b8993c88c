// Validate functions kept as ajv standalone code under node_modules/.cache/casi/<folder>/: ajv compiles a schema
// into code it runs with `new Function`, which V8 cannot cache, so a schema compiled in every process (a
// meta-schema) is compiled once and loaded as a module from then on. Plain JavaScript: the check worker uses it too.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeAtomically } from '../../bin/compiled.mjs';

const CACHE = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'node_modules', '.cache', 'casi');
const requireHere = createRequire(import.meta.url);

/**
 * The validate function of `schema`: loaded from the cache, or compiled now (`compile` returns the ajv that compiled
 * it, the function, and that ajv's `standalone` export) and stored for the next process. `key` names what else the
 * code depends on (versions, options); the standalone code's `require`s are pinned to the files `from` resolves
 * them to (the compiling ajv's own runtime). CASI_CACHE=0 compiles it every time.
 */
export function precompiled({ folder, key, schema, compile, from }) {
  if (process.env.CASI_CACHE === '0') return compile().validate;
  const file = cachedFile(folder, key, schema);
  try {
    return requireHere(file);
  } catch {
    // Not compiled yet (or unreadable): compile below.
  }
  const { ajv, validate, standalone } = compile();
  try {
    const code = standalone(ajv, validate).replace(
      /require\("([^"]+)"\)/g,
      (_, id) => `require(${JSON.stringify(from.resolve(id))})`,
    );
    writeAtomically(file, code);
  } catch {
    // A cache that cannot be written only costs time.
  }
  return validate;
}

/** Where the code for `schema` under `key` is kept. */
export function cachedFile(folder, key, schema) {
  const hash = createHash('sha256').update(key).update(JSON.stringify(schema)).digest('hex').slice(0, 32);
  return join(CACHE, folder, `${hash}.cjs`);
}
