/** Agent identifiers: `ca_<id>` / `pa_<id>`, optionally with a version `@v<n>`. */

/** The two agent id prefixes. */
export type AgentPrefix = 'ca' | 'pa';

/** A parsed agent reference: the agent id and the version number, or null for the bare id. */
export interface AgentRef {
  readonly id: string;
  readonly version: number | null;
}

const REF = /^((?:ca|pa)_[A-Za-z0-9]+)(?:@v([1-9][0-9]{0,8}))?$/;

/** Parses `ref` when it has `prefix` and a well-formed version (no leading zeros); otherwise null. */
export function parseAgentRef(ref: string, prefix: AgentPrefix): AgentRef | null {
  const match = REF.exec(ref);
  const id = match?.[1];
  if (match === null || id === undefined || !id.startsWith(`${prefix}_`)) return null;
  return { id, version: match[2] === undefined ? null : Number(match[2]) };
}

/** `<id>@v<n>`. */
export function versionId(id: string, version: number): string {
  return `${id}@v${version}`;
}
