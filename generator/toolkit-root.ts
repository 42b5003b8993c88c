/** Where the toolkit lives: the nearest folder above this module with a package.json (from the sources or dist/). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The toolkit's root folder: its `templates/`, `reference/` and `package.json` are there. */
export const TOOLKIT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
