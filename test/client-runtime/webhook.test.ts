/**
 * verifyWebhook against real deliveries: the reference server's webhook sender posts a signed `conversation.setup`
 * event to a node:http receiver, which verifies the raw body as a user's handler would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../generated/src/client.gen.js';
import type { ServerEvent } from '../../generated/src/types.gen.js';
import { MemoryEventBus } from '../../reference/bus/memory.js';
import { systemClock } from '../../reference/clock.js';
import { buildEvent } from '../../reference/events.js';
import { TimerGroup } from '../../reference/timers.js';
import { WebhookSender, webhookSignature } from '../../reference/webhook.js';
import { readBody, startHttpServer, type TestServer } from './helpers/http-server.js';

const SECRET = 'whsec_test';
const event = buildEvent(
  { id: 'conv_1', agent_id: 'ca_1@v1', livemode: true },
  { type: 'conversation.setup', channel: { type: 'chat_async' }, direction: 'inbound' },
  '2025-07-01T00:00:00.000Z',
);

let receiver: TestServer | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Starts a receiver verifying with `secret`; resolves to what it verified (or the error it raised). */
async function deliver(secret: string): Promise<unknown> {
  let settle: (outcome: unknown) => void = () => {};
  const outcome = new Promise<unknown>((resolve) => {
    settle = resolve;
  });
  receiver = await startHttpServer(async (req, res) => {
    const body = await readBody(req);
    try {
      settle(await verifyWebhook<ServerEvent>(body, req.headers, secret));
      res.writeHead(204).end();
    } catch (error) {
      settle(error);
      res.writeHead(400).end();
    }
  });
  const errors: unknown[] = [];
  const timers = new TimerGroup(systemClock, (error) => errors.push(error));
  const bus = new MemoryEventBus();
  await bus.append(event.conversation_id, event);
  const sender = new WebhookSender({ url: receiver.url, secret: SECRET }, systemClock, timers, bus, (e) =>
    errors.push(e),
  );
  await sender.send(event).delivered;
  timers.close();
  return outcome;
}

describe('verifyWebhook', () => {
  it("accepts the reference server's delivery and returns the event", async () => {
    expect(await deliver(SECRET)).toEqual(event);
  });

  it('refuses a delivery signed with another secret', async () => {
    const outcome = await deliver('whsec_other');
    expect(outcome).toBeInstanceOf(WebhookVerificationError);
    expect((outcome as Error).message).toMatch(/No Casi-Signature signature matches/);
  });

  it('refuses a changed body, a missing or malformed header, and an old signature', async () => {
    const body = JSON.stringify(event);
    const now = 1_751_464_800;
    const signature = webhookSignature(SECRET, now, body);
    const at = { now: now * 1000 };
    await expect(verifyWebhook(body, { 'Casi-Signature': signature }, SECRET, at)).resolves.toEqual(event);
    await expect(
      verifyWebhook(new TextEncoder().encode(body), new Headers({ 'casi-signature': signature }), SECRET, at),
    ).resolves.toEqual(event);
    await expect(verifyWebhook(`${body} `, { 'casi-signature': signature }, SECRET, at)).rejects.toThrow(
      /No Casi-Signature signature matches/,
    );
    await expect(verifyWebhook(body, {}, SECRET, at)).rejects.toThrow('The Casi-Signature header is missing.');
    await expect(verifyWebhook(body, { 'casi-signature': 'v1=zz' }, SECRET, at)).rejects.toThrow(
      /is not `t=<unix seconds>,v1=<64 hex digits>`: "v1=zz"/,
    );
    const late = { now: (now + 301) * 1000 };
    await expect(verifyWebhook(body, { 'casi-signature': signature }, SECRET, late)).rejects.toThrow(
      /301 s from now; the tolerance is 300 s/,
    );
    await expect(
      verifyWebhook(body, { 'casi-signature': signature }, SECRET, { ...late, toleranceSeconds: 400 }),
    ).resolves.toEqual(event);
  });

  it('accepts any of several v1 signatures, as while a secret is rotated', async () => {
    const body = JSON.stringify(event);
    const now = 1_751_464_800;
    const current = webhookSignature(SECRET, now, body).split(',')[1];
    const header = `t=${now},v1=${'0'.repeat(64)},${current}`;
    await expect(verifyWebhook(body, { 'casi-signature': header }, SECRET, { now: now * 1000 })).resolves.toEqual(
      event,
    );
  });
});
