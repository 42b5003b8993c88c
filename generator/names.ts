/** Names for generated code, derived from spec names. */
import type { Ir } from './ir/model.js';

/** `agent.message.delta` / `create_conversation` / `conversational-agents` → `AgentMessageDelta`-style PascalCase. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

/** PascalCase with a lower-case first letter. */
export function camelCase(text: string): string {
  const pascal = pascalCase(text);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** Words a type or value cannot be named (ECMAScript reserved words and TypeScript's built-in type names). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'implements interface let package private protected public static yield await any unknown never string number ' +
    'boolean symbol object bigint undefined'
  ).split(' '),
);

/** Whether `name` can be used as it is as the name of a type, a function or a variable. */
export function isPlainName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/**
 * A name for generated code for each spec name: a plain name stays as it is; any other becomes PascalCase (`_`
 * before a leading digit). Two names that would be the same get `2`, `3`, … in sorted order, so the result is
 * stable and collision-free.
 */
export function codeNames(names: readonly string[]): Map<string, string> {
  const result = new Map<string, string>();
  const taken = new Set(names.filter(isPlainName));
  for (const name of [...new Set(names)].sort()) {
    if (isPlainName(name)) {
      result.set(name, name);
      continue;
    }
    const pascal = pascalCase(name) || 'Schema';
    const base = /^[0-9]/.test(pascal) || RESERVED.has(pascal) ? `_${pascal}` : pascal;
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
    taken.add(candidate);
    result.set(name, candidate);
  }
  return result;
}

/** The code name of every component schema and event message of `ir`, by spec name (types and validators agree). */
export function schemaCodeNames(ir: Pick<Ir, 'schemas' | 'events'>): Map<string, string> {
  return codeNames([...ir.schemas.map((s) => s.name), ...ir.events.map((e) => e.name)]);
}
