/**
 * Stateful sequences (model-based, `fc.commands`): create, update, release and read conversational agents; create,
 * update, release and delete procedural agents; start and end conversations; list both. A small model predicts each
 * answer (versions per spec/DECISIONS.md "Versions"), and after every step the server and the model agree.
 */
import fc from 'fast-check';
import type { Client } from '../generated/src/client.gen.js';
import { agentConfig, chatThenEnd, clientFor } from './fixtures.js';
import type { Report } from './report.js';
import type { Target } from './target.js';

/** One versioned agent as the model sees it. */
interface AgentModel {
  readonly id: string;
  name: string;
  /** `everReleased[n - 1]` for version n: a version never released is a draft, updated in place. */
  readonly everReleased: boolean[];
  released: number;
  deleted: boolean;
}

/** What the server should hold of the ids made in this run. */
export interface StateModel {
  readonly agents: AgentModel[];
  readonly procedural: AgentModel[];
  readonly conversations: { id: string; agentVersionId: string; ended: boolean }[];
}

/** The system under test: a client of the server. */
export interface Real {
  readonly client: Client;
}

type Command = fc.AsyncCommand<StateModel, Real>;

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: server ${JSON.stringify(actual)}, model ${JSON.stringify(expected)}`);
}

/** The model's answer to a PUT on the latest version: in place on a draft, else a new draft. */
function applyUpdate(agent: AgentModel, name: string): number {
  agent.name = name;
  if (agent.everReleased[agent.everReleased.length - 1] === true) agent.everReleased.push(false);
  return agent.everReleased.length;
}

function release(agent: AgentModel, version: number): void {
  agent.released = version;
  agent.everReleased[version - 1] = true;
}

const latest = (agent: AgentModel) => agent.everReleased.length;
const live = (agents: readonly AgentModel[]) => agents.filter((a) => !a.deleted);
const pick = <T>(items: readonly T[], index: number): T | undefined => items[index % Math.max(1, items.length)];

class CreateAgent implements Command {
  constructor(readonly name: string) {}
  check = () => true;
  async run(model: StateModel, real: Real) {
    const made = await real.client.conversationalAgents.create({ name: this.name, config: agentConfig() });
    expectEqual('created version', made.version_id, `${made.id}@v1`);
    model.agents.push({ id: made.id, name: this.name, everReleased: [true], released: 1, deleted: false });
  }
  toString = () => `CreateAgent(${JSON.stringify(this.name)})`;
}

class UpdateAgent implements Command {
  constructor(
    readonly index: number,
    readonly name: string,
  ) {}
  check = (model: Readonly<StateModel>) => model.agents.length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(model.agents, this.index) as AgentModel;
    const answer = await real.client.conversationalAgents.update(agent.id, { name: this.name });
    expectEqual('draft version', answer.version_id, `${agent.id}@v${applyUpdate(agent, this.name)}`);
    const read = await real.client.conversationalAgents.retrieve(agent.id);
    expectEqual(
      'agent read back',
      [read.version_id, read.name, read.is_released],
      [`${agent.id}@v${latest(agent)}`, agent.name, agent.released === latest(agent)],
    );
  }
  toString = () => `UpdateAgent(${this.index}, ${JSON.stringify(this.name)})`;
}

class ReleaseAgent implements Command {
  constructor(
    readonly index: number,
    readonly version: number,
  ) {}
  check = (model: Readonly<StateModel>) => model.agents.length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(model.agents, this.index) as AgentModel;
    const version = 1 + (this.version % latest(agent));
    await real.client.conversationalAgents.release(`${agent.id}@v${version}`);
    release(agent, version);
    const versions = await real.client.conversationalAgents.listVersions(agent.id);
    expectEqual(
      'released flags',
      versions.data.map((v) => v.is_released),
      agent.everReleased.map((_, i) => i + 1 === agent.released),
    );
  }
  toString = () => `ReleaseAgent(${this.index}, ${this.version})`;
}

class CreateProcedural implements Command {
  constructor(readonly name: string) {}
  check = () => true;
  async run(model: StateModel, real: Real) {
    const config = { runtime: { prompt: { type: 'fixed' as const, text: 'Summarise.' } } };
    const made = await real.client.proceduralAgents.create({ name: this.name, config });
    model.procedural.push({ id: made.id, name: this.name, everReleased: [true], released: 1, deleted: false });
  }
  toString = () => `CreateProcedural(${JSON.stringify(this.name)})`;
}

class UpdateProcedural implements Command {
  constructor(
    readonly index: number,
    readonly name: string,
  ) {}
  check = (model: Readonly<StateModel>) => live(model.procedural).length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(live(model.procedural), this.index) as AgentModel;
    const answer = await real.client.proceduralAgents.update(agent.id, { name: this.name });
    expectEqual('draft version', answer.version_id, `${agent.id}@v${applyUpdate(agent, this.name)}`);
  }
  toString = () => `UpdateProcedural(${this.index}, ${JSON.stringify(this.name)})`;
}

class ReleaseProcedural implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<StateModel>) => live(model.procedural).length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(live(model.procedural), this.index) as AgentModel;
    const answer = await real.client.proceduralAgents.release(`${agent.id}@v${latest(agent)}`);
    release(agent, latest(agent));
    expectEqual('released version', answer.version_id, `${agent.id}@v${agent.released}`);
  }
  toString = () => `ReleaseProcedural(${this.index})`;
}

class DeleteProcedural implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<StateModel>) => live(model.procedural).length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(live(model.procedural), this.index) as AgentModel;
    await real.client.proceduralAgents.delete(agent.id);
    agent.deleted = true;
    const status = await real.client.proceduralAgents.retrieve(agent.id).then(
      () => 200,
      (error: { status?: number }) => error.status,
    );
    expectEqual('read after delete', status, 404);
  }
  toString = () => `DeleteProcedural(${this.index})`;
}

class ListProcedural implements Command {
  check = () => true;
  async run(model: StateModel, real: Real) {
    const known = new Set(model.procedural.map((a) => a.id));
    const listed = (await real.client.proceduralAgents.list()).data.filter((a) => known.has(a.id));
    const expected = live(model.procedural).map((a) => [
      a.id,
      a.name,
      `${a.id}@v${latest(a)}`,
      `${a.id}@v${a.released}`,
    ]);
    const actual = listed.map((a) => [a.id, a.name, a.latest_version_id, a.released_version_id]);
    const byId = (x: unknown[], y: unknown[]) => String(x[0]).localeCompare(String(y[0]));
    expectEqual('procedural agents listed', actual.sort(byId), expected.sort(byId));
  }
  toString = () => 'ListProcedural';
}

class StartConversation implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<StateModel>) => model.agents.length > 0;
  async run(model: StateModel, real: Real) {
    const agent = pick(model.agents, this.index) as AgentModel;
    const made = await real.client.conversations.create({ agent_id: agent.id, channel: { type: 'chat_realtime' } });
    const agentVersionId = `${agent.id}@v${agent.released}`;
    model.conversations.push({ id: made.id, agentVersionId, ended: false });
    const read = await real.client.conversations.retrieve(made.id);
    expectEqual('new conversation', [read.agent_id, read.status], [agentVersionId, 'queued']);
  }
  toString = () => `StartConversation(${this.index})`;
}

class EndConversation implements Command {
  constructor(readonly index: number) {}
  check = (model: Readonly<StateModel>) => model.conversations.some((c) => !c.ended);
  async run(model: StateModel, real: Real) {
    const conversation = pick(
      model.conversations.filter((c) => !c.ended),
      this.index,
    ) as StateModel['conversations'][number];
    const events = await chatThenEnd(real.client, conversation.id, 'thanks, bye');
    conversation.ended = true;
    expectEqual('last event', events.at(-1)?.payload.type, 'conversation.ended');
  }
  toString = () => `EndConversation(${this.index})`;
}

class ListConversations implements Command {
  check = () => true;
  async run(model: StateModel, real: Real) {
    const known = new Map(model.conversations.map((c) => [c.id, c]));
    const seen: string[] = [];
    for await (const item of real.client.conversations.list({ limit: 7 })) {
      const expected = known.get(item.id);
      if (!expected) continue;
      seen.push(item.id);
      const status = expected.ended ? 'completed' : 'queued';
      expectEqual(`conversation ${item.id}`, [item.agent_id, item.status], [expected.agentVersionId, status]);
    }
    expectEqual('conversations listed', seen.sort(), [...known.keys()].sort());
  }
  toString = () => 'ListConversations';
}

const index = fc.nat({ max: 50 });
const name = fc.string({ minLength: 1, maxLength: 40 });

/** Every command, with its generated arguments. */
export const COMMANDS: fc.Arbitrary<Command>[] = [
  name.map((n) => new CreateAgent(n)),
  fc.tuple(index, name).map(([i, n]) => new UpdateAgent(i, n)),
  fc.tuple(index, index).map(([i, v]) => new ReleaseAgent(i, v)),
  name.map((n) => new CreateProcedural(n)),
  fc.tuple(index, name).map(([i, n]) => new UpdateProcedural(i, n)),
  index.map((i) => new ReleaseProcedural(i)),
  index.map((i) => new DeleteProcedural(i)),
  fc.constant(new ListProcedural()),
  index.map((i) => new StartConversation(i)),
  index.map((i) => new EndConversation(i)),
  fc.constant(new ListConversations()),
];

/** Runs `runs` command sequences of up to `maxCommands` against `target`; records one `stateful` case per sequence. */
export async function runStateful(
  target: Target,
  report: Report,
  options: { readonly runs: number; readonly seed: number; readonly maxCommands?: number },
): Promise<void> {
  const client = clientFor(target.baseUrl, target.keys.write);
  const property = fc.asyncProperty(
    fc.commands(COMMANDS, { maxCommands: options.maxCommands ?? 80, size: 'max' }),
    (commands) =>
      fc.asyncModelRun(
        () => ({ model: { agents: [], procedural: [], conversations: [] }, real: { client } }),
        commands,
      ),
  );
  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed });
  for (let run = 0; run < details.numRuns; run++) report.record('stateful', 'sequence', undefined);
  if (details.failed)
    report.record(
      'stateful',
      'sequence',
      `seed ${options.seed}, path ${details.counterexamplePath}: ${String(details.counterexample?.[0])}: ${String(details.errorInstance)}`,
    );
}
