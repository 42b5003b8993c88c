/** Reads the runtime templates that are copied verbatim into the generated package. */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** One template file: its path below the templates folder (`/` separators) and its text. */
export interface TemplateFile {
  readonly path: string;
  readonly content: string;
}

/** The folders of `templates/` that ship in the package. */
export const RUNTIME_FOLDERS = ['shared', 'client', 'server'] as const;

/** Reads every `.ts` file (tests excluded) of the runtime folders, sorted by path; a missing folder is skipped. */
export async function loadTemplates(templatesDir: string): Promise<TemplateFile[]> {
  const files: TemplateFile[] = [];
  for (const folder of RUNTIME_FOLDERS) {
    const root = join(templatesDir, folder);
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const full = join(entry.parentPath, entry.name);
      files.push({ path: relative(templatesDir, full).split(sep).join('/'), content: await readFile(full, 'utf8') });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
