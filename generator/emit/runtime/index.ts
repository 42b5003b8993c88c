/** Emits the runtime: the templates copied verbatim below `src/runtime/`, each with the generated header. */
import type { TemplateFile } from '../../load/templates.js';
import { type EmittedFile, withHeader } from '../shared/files.js';

/** Copies every template file to `src/runtime/<path>`. */
export function emitRuntime(templates: readonly TemplateFile[]): EmittedFile[] {
  return templates.map((t) => withHeader(`src/runtime/${t.path}`, t.content));
}
