/**
 * `webhook_conformance`: a receiver on loopback takes the server's webhook deliveries during a run; each one must
 * match the OpenAPI `webhooks` entry (required headers valid, body valid against its schema and against the AsyncAPI
 * message of its type), carry a valid `Casi-Signature` (HMAC-SHA256 of "<t>.<raw body>", spec/DECISIONS.md), and
 * every conversation must be announced exactly once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonSchema } from '../generator/ir/model.js';
import { valueAt } from '../generator/load/index.js';
import type { Report } from './report.js';
import { eventProblem } from './response-checks.js';
import type { ConformanceSpec } from './spec.js';
import { parseJson } from './wire.js';

/** One POST the receiver got. */
export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A running receiver: it acknowledges every delivery with 200. */
export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (port chosen by the OS). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Checks every delivery, and that each of `conversationIds` was announced exactly once. */
export function checkDeliveries(
  spec: ConformanceSpec,
  report: Report,
  deliveries: readonly Delivery[],
  secret: string,
  conversationIds: readonly string[],
): void {
  const webhooks = (spec.ir.openapi.webhooks ?? {}) as Record<string, { post?: JsonSchema }>;
  const announced = new Map<string, number>();
  for (const delivery of deliveries) {
    const event = parseJson(delivery.body) as { payload?: { type?: unknown }; conversation_id?: unknown } | undefined;
    const problems = Object.entries(webhooks).map(([name, item]) =>
      webhookProblem(spec, item.post ?? {}, delivery, event, name),
    );
    const problem = problems.includes(undefined) ? undefined : problems.join('; ');
    report.record('webhook_conformance', 'delivery', problem ?? signatureProblem(delivery, secret));
    if (typeof event?.conversation_id === 'string')
      announced.set(event.conversation_id, (announced.get(event.conversation_id) ?? 0) + 1);
  }
  for (const id of conversationIds) {
    const count = announced.get(id) ?? 0;
    report.record(
      'webhook_conformance',
      'announced once',
      count === 1 ? undefined : `${id} was announced ${count} times`,
    );
  }
}

/** Why `delivery` is not a delivery of the webhook `operation`, or undefined. */
function webhookProblem(
  spec: ConformanceSpec,
  operation: JsonSchema,
  delivery: Delivery,
  event: unknown,
  name: string,
): string | undefined {
  const doc = spec.ir.openapi;
  for (const raw of (operation.parameters ?? []) as unknown[]) {
    const parameter = deref(doc, raw) as { name: string; in: string; required?: boolean; schema: JsonSchema };
    if (parameter.in !== 'header') continue;
    const value = delivery.headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) return `${name}: no ${parameter.name} header`;
      continue;
    }
    if (!spec.check(parameter.schema)(value)) return `${name}: header ${parameter.name}: ${String(value)} is invalid`;
  }
  const content = (operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
  const schema = content?.['application/json']?.schema;
  if (event === undefined) return `${name}: the body is not JSON: ${delivery.body.slice(0, 200)}`;
  if (schema && !spec.check(schema)(event))
    return `${name}: the body breaks its schema: ${delivery.body.slice(0, 200)}`;
  return eventProblem(spec, event);
}

/** Whether `Casi-Signature: t=<unix>,v1=<hex>` is the HMAC-SHA256 of "<t>.<raw body>" with `secret`. */
function signatureProblem(delivery: Delivery, secret: string): string | undefined {
  const header = String(delivery.headers['casi-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return `Casi-Signature ${header} is not t=<unix>,v1=<hex>`;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${delivery.body}`).digest();
  const given = Buffer.from(match[2] as string, 'hex');
  return timingSafeEqual(expected, given) ? undefined : 'Casi-Signature does not verify with the webhook secret';
}

/** Follows local `$ref`s (`#/…`) from `value` in `root`. */
function deref(root: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 16; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
    current = valueAt(root, ref.slice(1));
  }
  return current;
}
