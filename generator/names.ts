/** Names for generated code, derived from spec names. */

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
