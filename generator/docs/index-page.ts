/** Renders the reference's home page (`index.html`): what the two references hold, and how to read the marks. */
import type { EventsDoc } from './events-model.js';
import { INFERRED_BADGE } from './events-page.js';
import { html } from './html.js';
import { page } from './layout.js';

/** What the home page states about the REST side. */
export interface IndexFacts {
  /** The OpenAPI document's title. */
  readonly title: string;
  readonly operations: number;
  readonly inferredOperations: number;
}

/** The home page. */
export function renderIndexPage(doc: EventsDoc, facts: IndexFacts): string {
  const server = doc.events.filter((e) => e.event.direction === 'server').length;
  const client = doc.events.length - server;
  const body = html`<main class="content">
  <p>The reference of the ${facts.title}, built from <code>spec/openapi.yaml</code> and
    <code>spec/asyncapi.yaml</code> by <code>npm run docs</code>. Everything here works offline.</p>
  <div class="cards">
    <a class="card" href="rest.html"><h2>REST API</h2>
      <p>${facts.operations} operations: agents, conversations, procedures, customers, errors. Rendered by Redoc.</p></a>
    <a class="card" href="events.html"><h2>Events</h2>
      <p>${server} server events and ${client} client events over Server-Sent Events, the WebSocket session and
        the webhook, with the ordering rules, every payload field and every example.</p></a>
  </div>
  <p>${INFERRED_BADGE} marks what the source leaves open and the specs decide (<code>x-casi-inferred: true</code>;
    each choice and its reason is in <code>spec/DECISIONS.md</code>): ${facts.inferredOperations} operations, and
    parameters, schemas, fields and transports on both pages.</p>
</main>`;
  return page({
    title: `${facts.title} — reference`,
    heading: 'CASI reference',
    meta: `${facts.title} · ${doc.version} · Service-Version ${doc.serviceVersion}`,
    body,
  });
}
