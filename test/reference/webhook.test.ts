/** The conversation.setup webhook against a real HTTP receiver: body, signature, retries and timeout on the clock. */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { validateServerEvent } from '../../generated/src/validators.gen.js';
import { MemoryEventBus } from '../../reference/bus/memory.js';
import { FakeClock } from '../../reference/clock.js';
import { buildEvent } from '../../reference/events.js';
import { TimerGroup } from '../../reference/timers.js';
import { WEBHOOK_TIMEOUT_MS, WebhookSender, webhookSignature, webhookTimer } from '../../reference/webhook.js';
import {
  createAgent,
  createConversation,
  eventsOf,
  expectValid,
  makeService,
  type TestService,
} from './helpers/fixtures.js';
import { startReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

let receiver: WebhookReceiver | undefined;
let t: TestService | undefined;
afterEach(async () => {
  t?.service.close();
  await receiver?.close();
  receiver = undefined;
});

const SECRET = 'whsec_test';

function verify(headers: Record<string, unknown>, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['casi-signature']));
  if (match === null) return false;
  const expected = createHmac('sha256', SECRET).update(`${match[1]}.${body}`).digest('hex');
  return expected === match[2];
}

function setupEvent(): ServerEvent {
  const conversation = { id: 'conv_1', agent_id: 'ca_1@v1', livemode: true };
  return buildEvent(
    conversation,
    { type: 'conversation.setup', channel: { type: 'chat_async' }, direction: 'inbound' },
    '2025-07-01T00:00:00.000Z',
  );
}

/** A sender whose bus holds the setup event it is to send (retries find it there). */
async function sender(clock: FakeClock, url: string, errors: unknown[] = []) {
  const timers = new TimerGroup(clock, (error) => errors.push(error));
  const bus = new MemoryEventBus();
  const event = setupEvent();
  await bus.append(event.conversation_id, event);
  const webhook = new WebhookSender({ url, secret: SECRET }, clock, timers, bus, (error) => errors.push(error));
  return { sender: webhook, timers, bus, event };
}

describe('webhookSignature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const mac = createHmac('sha256', 's').update('1751328000.{"a":1}').digest('hex');
    expect(webhookSignature('s', 1_751_328_000, '{"a":1}')).toBe(`t=1751328000,v1=${mac}`);
  });
});

describe('WebhookSender', () => {
  it('POSTs the event as JSON with Service-Version and a valid signature; a 2xx acknowledges', async () => {
    receiver = await startReceiver(() => 204);
    const clock = new FakeClock();
    const { sender: webhook, timers, event } = await sender(clock, receiver.url);
    expect(await webhook.send(event).delivered).toBe(true);
    const [delivery] = receiver.deliveries;
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers['service-version']).toBe('2025-06-19');
    expect(delivery?.headers['casi-signature']).toMatch(`t=${Math.floor(clock.now() / 1000)},`);
    expect(verify(delivery?.headers ?? {}, delivery?.body ?? '')).toBe(true);
    expect(JSON.parse(delivery?.body ?? '')).toEqual(event);
    expect(timers.names()).toEqual([]);
  });

  it('retries after 1, 2 and 4 s until a 2xx, with the same body', async () => {
    receiver = await startReceiver((n) => (n < 2 ? 500 : 200));
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const { sender: webhook, timers, event } = await sender(clock, receiver.url, errors);
    expect(await webhook.send(event).delivered).toBe(false);
    await clock.advance(999);
    expect(receiver.deliveries).toHaveLength(1);
    await clock.advance(1);
    expect(receiver.deliveries).toHaveLength(2);
    await clock.advance(2000);
    expect(receiver.deliveries).toHaveLength(3);
    expect(new Set(receiver.deliveries.map((d) => d.body)).size).toBe(1);
    expect(timers.names()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps a retry as a timer named after the event and the attempt, which finds the event again in its log', async () => {
    receiver = await startReceiver(() => 500);
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const { sender: webhook, timers, bus, event } = await sender(clock, receiver.url, errors);
    await webhook.send(event).delivered;
    expect(timers.names()).toEqual([`webhook:${event.conversation_id}/${event.id}/1`]);
    expect(webhookTimer(event, 1)).toBe(timers.names()[0]);
    // The log is gone (retention): the retry is reported, not sent.
    await bus.purge(event.conversation_id);
    await clock.advance(1000);
    expect(receiver.deliveries).toHaveLength(1);
    expect(timers.names()).toEqual([]);
    expect(String(errors[0])).toContain(`webhook ${event.id}: the event is no longer kept`);
  });

  it('gives up after 3 retries (4 attempts) and reports it', async () => {
    receiver = await startReceiver(() => 503);
    const clock = new FakeClock();
    const errors: unknown[] = [];
    const { sender: webhook, event } = await sender(clock, receiver.url, errors);
    await webhook.send(event).delivered;
    await clock.advance(1000 + 2000 + 4000 + 10_000);
    expect(receiver.deliveries).toHaveLength(4);
    expect(errors).toHaveLength(1);
  });

  it('treats 5 s without an answer as a failure and retries', async () => {
    receiver = await startReceiver((n) => (n === 0 ? null : 200));
    const clock = new FakeClock();
    const { sender: webhook, event } = await sender(clock, receiver.url);
    const first = webhook.send(event).delivered;
    await receiver.waitFor(1);
    await clock.advance(WEBHOOK_TIMEOUT_MS);
    expect(await first).toBe(false);
    await clock.advance(1000);
    expect(receiver.deliveries).toHaveLength(2);
  });
});

describe('the service', () => {
  it('delivers conversation.setup to CASI_WEBHOOK_URL when a conversation is created', async () => {
    receiver = await startReceiver(() => 200);
    t = makeService({ webhook: { url: receiver.url, secret: SECRET } });
    const agentId = await createAgent(t);
    const { id } = await createConversation(t, agentId, { type: 'phone', callee_no: '+14155550123' });
    await receiver.waitFor(1);
    const [delivery] = receiver.deliveries;
    const body: unknown = JSON.parse(delivery?.body ?? '');
    expectValid(validateServerEvent, body);
    expect(body).toEqual((await eventsOf(t, id))[0]);
    expect(verify(delivery?.headers ?? {}, delivery?.body ?? '')).toBe(true);
  });
});
