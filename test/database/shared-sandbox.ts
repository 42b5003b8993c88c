/**
 * The shared-sandbox scenario: two `casi serve` instances on one PostgreSQL, clients picking an instance each.
 * Chat sessions talk on one instance while SSE subscribers of the same conversations follow on both; halfway
 * through the traffic the first instance is killed (`kill -9`) and its clients move to the second, resuming from
 * the last event they got. Each client's events are then compared with the conversation's log: what was lost,
 * duplicated or out of order. Used by the test (a few seconds) and by the bench (the full-size run).
 */
import type { Client } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { RawSession, SseReader, type Target } from './raw-clients.js';

/** How big the run is. */
export interface SandboxLoad {
  readonly sessions: number;
  /** SSE subscribers per conversation, spread over both instances. */
  readonly subscribersPerConversation: number;
  /** Milliseconds of chat traffic; the first instance is killed halfway. */
  readonly trafficMs: number;
}

/** The two instances: a client (API key) and the address of each, and how to kill the first (none: no kill). */
export interface SandboxInstances {
  readonly clients: readonly [Client, Client];
  readonly baseUrls: readonly [string, string];
  readonly killFirst?: () => Promise<void>;
}

/** What the run measured. */
export interface SandboxFigures {
  readonly sessions: number;
  readonly subscribers: number;
  /** User messages answered (`agent.message.completed`) across all sessions. */
  readonly messages: number;
  /** Events in all the conversations' logs. */
  readonly loggedEvents: number;
  /** Events the clients received in all (each client counts each event it got). */
  readonly deliveredEvents: number;
  /** Clients that started on the instance other than their conversation's session's, and got what it caused. */
  readonly crossInstanceClients: number;
  /** Clients moved from the killed instance to the other. */
  readonly movedClients: number;
  /** Log events some client never got; events some client got twice; clients whose order differs from the log. */
  readonly lost: number;
  readonly duplicated: number;
  readonly misordered: number;
  /** Wall-clock milliseconds of the traffic. */
  readonly elapsedMs: number;
}

/** A client followed over its moves: every event it got, in order, and the instance it is on now. */
interface Followed {
  readonly target: Omit<Target, 'baseUrl'>;
  /** Where the conversation's session started: the instance that logs its events until a move. */
  readonly sessionOn: 0 | 1;
  instance: 0 | 1;
  readonly events: ServerEvent[];
  moved: boolean;
}

/** Runs the scenario against `agentId` (a released conversational agent) and returns its figures. */
export async function runSharedSandbox(
  instances: SandboxInstances,
  agentId: string,
  load: SandboxLoad,
): Promise<SandboxFigures> {
  const { clients, baseUrls } = instances;
  const conversations = await Promise.all(
    Array.from({ length: load.sessions }, (_, i) =>
      clients[i % 2 === 0 ? 0 : 1].conversations.create({ agent_id: agentId, channel: { type: 'chat_realtime' } }),
    ),
  );
  const targets = conversations.map((c) => ({ conversationId: c.id, token: c.channel.token }));
  const sessionOn = (i: number): 0 | 1 => (i % 2 === 0 ? 1 : 0);
  const at = (instance: 0 | 1, target: Omit<Target, 'baseUrl'>): Target => ({ ...target, baseUrl: baseUrls[instance] });

  // Subscribers first (they start from the beginning), on both instances; each session on one instance.
  const startOf = (index: number): 0 | 1 => {
    const i = Math.floor(index / load.subscribersPerConversation);
    return (i + (index % load.subscribersPerConversation)) % 2 === 0 ? 0 : 1;
  };
  const subscribers: { followed: Followed; reader: SseReader }[] = [];
  for (const [i, target] of targets.entries()) {
    for (let j = 0; j < load.subscribersPerConversation; j++) {
      const instance = startOf(i * load.subscribersPerConversation + j);
      const followed: Followed = { target, sessionOn: sessionOn(i), instance, events: [], moved: false };
      subscribers.push({ followed, reader: new SseReader(at(instance, target)) });
    }
  }
  const sessionsOf = targets.map((target, i) => {
    const followed: Followed = { target, sessionOn: sessionOn(i), instance: sessionOn(i), events: [], moved: false };
    return { followed, session: new RawSession(at(followed.instance, target)) };
  });
  await Promise.all(sessionsOf.map(({ session }) => session.open));

  const started = Date.now();
  const deadline = started + load.trafficMs;
  let messages = 0;
  let killed = false;
  /** A session's traffic: one message at a time until the deadline; moves to the live instance when its dies. */
  const talk = async (entry: (typeof sessionsOf)[number]) => {
    entry.session.send({ type: 'conversation.start' });
    await entry.session.next('conversation.started');
    let n = 0;
    while (Date.now() < deadline) {
      const answered = entry.session.next('agent.message.completed');
      entry.session.send({ type: 'user.message.send', text: `message ${n++}` });
      await answered;
      if (entry.session.socket.readyState === entry.session.socket.OPEN) {
        messages++;
        continue;
      }
      await waitUntil(() => killed);
      entry.followed.events.push(...entry.session.events);
      entry.followed.instance = 1;
      entry.followed.moved = true;
      entry.session = new RawSession(at(1, entry.followed.target), entry.followed.events.at(-1)?.id);
      await entry.session.open;
    }
    const ended = entry.session.next('conversation.ended');
    entry.session.send({ type: 'conversation.end' });
    await ended;
    entry.followed.events.push(...entry.session.events);
    entry.session.close();
  };
  const traffic = Promise.all(sessionsOf.map((entry) => talk(entry)));

  await sleep(load.trafficMs / 2);
  await instances.killFirst?.();
  killed = true;
  // Subscribers of the killed instance resume on the other from the last event they got.
  for (const entry of subscribers) {
    if (entry.followed.instance !== 0 || instances.killFirst === undefined) continue;
    await entry.reader.done;
    entry.followed.events.push(...entry.reader.events);
    entry.followed.instance = 1;
    entry.followed.moved = true;
    entry.reader = new SseReader(at(1, entry.followed.target), entry.followed.events.at(-1)?.id);
  }
  await traffic;
  const elapsedMs = Date.now() - started;
  await Promise.all(subscribers.map((entry) => entry.reader.done));
  for (const entry of subscribers) entry.followed.events.push(...entry.reader.events);

  // The logs, read whole from the surviving instance.
  const logs = new Map<string, ServerEvent[]>();
  for (const target of targets) {
    const reader = new SseReader(at(1, target));
    await reader.done;
    logs.set(target.conversationId, reader.events);
  }
  const followed = [...subscribers.map((s) => s.followed), ...sessionsOf.map((s) => s.followed)];
  let lost = 0;
  let duplicated = 0;
  let misordered = 0;
  let delivered = 0;
  let crossInstance = 0;
  for (const [index, client] of followed.entries()) {
    const startedOn = index < subscribers.length ? startOf(index) : client.sessionOn;
    const log = logs.get(client.target.conversationId) ?? [];
    const ids = client.events.map((event) => event.id);
    const unique = new Set(ids);
    delivered += ids.length;
    duplicated += ids.length - unique.size;
    lost += log.filter((event) => !unique.has(event.id)).length;
    if (ids.join(' ') !== log.map((event) => event.id).join(' ')) misordered++;
    const started = client.events.some((event) => event.payload.type === 'conversation.started');
    if (started && startedOn !== client.sessionOn) crossInstance++;
  }
  return {
    sessions: sessionsOf.length,
    subscribers: subscribers.length,
    messages,
    loggedEvents: [...logs.values()].reduce((sum, log) => sum + log.length, 0),
    deliveredEvents: delivered,
    crossInstanceClients: crossInstance,
    movedClients: followed.filter((client) => client.moved).length,
    lost,
    duplicated,
    misordered,
    elapsedMs,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 10 ms (bounded by the caller's test timeout). */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}
