/** The API shapes of agents read back: one version, a version list entry, a procedural list item. */
import type {
  AgentVersion,
  ConversationalAgent,
  ProceduralAgent,
  ProceduralAgentListItem,
} from '../generated/src/types.gen.js';
import { versionId } from './agent-refs.js';
import type { AgentKind, AgentRecord, AgentVersionRecord } from './store/records.js';

/** `GET /conversational_agents/{id}`. */
export function toConversationalAgent(
  agent: AgentRecord<'conversational'>,
  version: AgentVersionRecord<'conversational'>,
): ConversationalAgent {
  return {
    id: agent.id,
    version_id: versionId(agent.id, version.number),
    name: version.name,
    description: version.description,
    is_released: agent.released === version.number,
    config: version.config,
    postprocess_agents: version.postprocess_agents,
  };
}

/** `GET /procedural_agents/{id}`. */
export function toProceduralAgent(
  agent: AgentRecord<'procedural'>,
  version: AgentVersionRecord<'procedural'>,
): ProceduralAgent {
  return {
    id: agent.id,
    version_id: versionId(agent.id, version.number),
    name: version.name,
    description: version.description,
    is_released: agent.released === version.number,
    config: version.config,
  };
}

/** One entry of `GET /…/{id}/versions`. */
export function toAgentVersion<K extends AgentKind>(
  agent: AgentRecord<K>,
  version: AgentVersionRecord<K>,
): AgentVersion {
  return {
    id: agent.id,
    version_id: versionId(agent.id, version.number),
    is_released: agent.released === version.number,
    is_draft: !version.ever_released,
    created_at: version.created_at,
    updated_at: version.updated_at,
  };
}

/**
 * One entry of `GET /procedural_agents`: `name` and `description` are the latest version's. An agent always has
 * a released version (creation releases `@v1`); should a seeded store hold one without, the latest stands in.
 */
export function toProceduralListItem(agent: AgentRecord<'procedural'>): ProceduralAgentListItem {
  const latest = agent.versions[agent.versions.length - 1];
  if (latest === undefined) throw new Error(`agent ${agent.id} has no version`);
  return {
    id: agent.id,
    created_at: agent.created_at,
    updated_at: agent.updated_at,
    name: latest.name,
    description: latest.description,
    released_version_id: versionId(agent.id, agent.released ?? latest.number),
    latest_version_id: versionId(agent.id, latest.number),
  };
}
