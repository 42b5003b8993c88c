/** The JSDoc of a REST type member: title, summary, format, deprecation, description, default, examples, enum. */
import { type Json, type Node, ts } from './nodes.js';

const LINE_BREAK = /\r?\n/g;

/** Adds the JSDoc of `object` (a schema, parameter, operation, …) before `node`, when it has anything to say. */
export function withDoc<T extends Node>(object: Json, node: T): T {
  if (!object || typeof object !== 'object' || Array.isArray(object)) return node;
  const lines: string[] = [];
  const text = (value: unknown) => String(value).trim().replace(LINE_BREAK, '\n *     ');
  if (object.title) lines.push(text(object.title));
  if (object.summary) lines.push(text(object.summary));
  if (object.format) lines.push(`Format: ${object.format}`);
  if (object.deprecated) lines.push('@deprecated');
  for (const field of ['description', 'default', 'example']) {
    const value = object[field];
    if (value === undefined || (value === '' && field === 'description')) continue;
    lines.push(`@${field} ${text(typeof value === 'object' ? JSON.stringify(value, null, 2) : value)}`);
  }
  if (Array.isArray(object.examples)) {
    for (const example of object.examples) {
      lines.push(`@example ${text(typeof example === 'object' ? JSON.stringify(example, null, 2) : example)}`);
    }
  }
  if ('const' in object) lines.push('@constant');
  if (object.enum) {
    const type = Array.isArray(object.type)
      ? object.type.join('|')
      : typeof object.type === 'string'
        ? object.type
        : 'unknown';
    lines.push(`@enum {${type}${object.nullable ? '|null' : ''}}`);
  }
  if (lines.length === 0) return node;
  const multiLine = lines.length > 1 || lines.some((line) => line.includes('\n'));
  const comment = (multiLine ? `*\n * ${lines.join('\n * ')}\n ` : `* ${lines[0]} `).replace(/\*\//g, '*\\/');
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, comment, true);
}
