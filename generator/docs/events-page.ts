/** Renders the events reference (`events.html`): transports, ordering rules, envelopes, every event and example. */
import type { DocChannel, DocEnvelope, DocEvent, EventsDoc } from './events-model.js';
import type { FieldRow } from './fields.js';
import { html, inlineMarkdown, markdown, type SafeHtml, slug } from './html.js';
import { page } from './layout.js';

/** The badge that marks an element filling a gap of the source (`x-casi-inferred: true`). */
export const INFERRED_BADGE = html`<span class="badge inferred" data-inferred title="Not in the source: inferred, see spec/DECISIONS.md">Inferred</span>`;
const EXPERIMENTAL_BADGE = html`<span class="badge experimental" data-experimental title="The envelope carries experimental: true">Experimental</span>`;
const TERMINAL_BADGE = html`<span class="badge terminal" title="Nothing follows this event on a conversation's stream">Terminal</span>`;

/** The anchor of an event's section. */
export function eventAnchor(type: string): string {
  return `event-${slug(type)}`;
}

/** The whole page. */
export function renderEventsPage(doc: EventsDoc): string {
  const server = doc.events.filter((e) => e.event.direction === 'server');
  const client = doc.events.filter((e) => e.event.direction === 'client');
  const body = html`
<div class="layout">
  ${toc(doc, server, client)}
  <main class="content">
    <section id="overview">
      <h2 class="part">Overview and ordering rules</h2>
      ${legend()}
      ${markdown(doc.overview)}
    </section>
    <section id="transports">
      <h2 class="part">Transports</h2>
      ${doc.channels.map(channelCard)}
    </section>
    <section id="envelopes">
      <h2 class="part">Envelopes</h2>
      <p>Every event is an envelope whose <code>payload</code> is one of the payloads below, told apart by
        <code>payload.type</code>.</p>
      ${doc.envelopes.map(envelopeCard)}
    </section>
    <section id="server-events">
      <h2 class="part">Server events</h2>
      <p>Sent by the service on the SSE stream and the WebSocket session (and <code>conversation.setup</code> as a
        webhook), in one order per conversation.</p>
      ${server.map(eventCard)}
    </section>
    <section id="client-events">
      <h2 class="part">Client events</h2>
      <p>Sent by the client over the WebSocket session.</p>
      ${client.map(eventCard)}
    </section>
  </main>
</div>`;
  return page({
    title: `${doc.title} (${doc.version})`,
    heading: 'Events reference',
    meta: `${doc.title} · ${doc.version} · Service-Version ${doc.serviceVersion}`,
    body,
  });
}

function toc(doc: EventsDoc, server: readonly DocEvent[], client: readonly DocEvent[]): SafeHtml {
  const links = (events: readonly DocEvent[]) =>
    html`<ul>${events.map((e) => html`<li><a href="#${eventAnchor(e.event.type)}">${e.event.type}</a></li>`)}</ul>`;
  return html`<nav class="toc" aria-label="Contents">
    <ul>
      <li><a href="#overview">Overview and ordering rules</a></li>
      <li><a href="#transports">Transports</a></li>
      <li><a href="#envelopes">Envelopes</a></li>
    </ul>
    <h2>Transports</h2>
    <ul>${doc.channels.map((c) => html`<li><a href="#channel-${slug(c.id)}">${c.title}</a></li>`)}</ul>
    <h2>Server events</h2>${links(server)}
    <h2>Client events</h2>${links(client)}
  </nav>`;
}

function legend(): SafeHtml {
  return html`<div class="legend">
    <span>${INFERRED_BADGE} fills a gap of the source (<code>x-casi-inferred</code>; reasons in
      <code>spec/DECISIONS.md</code>)</span>
    <span>${EXPERIMENTAL_BADGE} experimental payload type</span>
    <span>${TERMINAL_BADGE} nothing follows it</span>
  </div>`;
}

function channelCard(channel: DocChannel): SafeHtml {
  return html`<article class="card" id="channel-${slug(channel.id)}">
    <h3>${channel.title} ${channel.inferred && INFERRED_BADGE}</h3>
    <p class="sub"><code>${channel.address}</code> · ${channel.protocol}</p>
    ${markdown(channel.description)}
    ${channel.operations.map(
      (op) => html`<p><span class="badge ${op.action === 'send' ? 'server' : 'client'}">${
        op.action === 'send' ? 'service sends' : 'service receives'
      }</span> <strong>${op.title}</strong> ${op.inferred && INFERRED_BADGE} — ${inlineMarkdown(op.summary)}
      ${op.description && inlineMarkdown(op.description)}</p>`,
    )}
    <ul class="types">${channel.eventTypes.map(
      (type) => html`<li><a href="#${eventAnchor(type)}"><code>${type}</code></a></li>`,
    )}</ul>
  </article>`;
}

function envelopeCard(envelope: DocEnvelope): SafeHtml {
  return html`<article class="card" id="envelope-${slug(envelope.name)}">
    <h3><code>${envelope.name}</code></h3>
    ${markdown(envelope.description)}
    ${fieldsTable(envelope.fields)}
  </article>`;
}

function eventCard(doc: DocEvent): SafeHtml {
  const { event } = doc;
  return html`<article class="card" id="${eventAnchor(event.type)}" data-event-type="${event.type}">
    <h3><code>${event.type}</code>
      <span class="badge ${event.direction}">${event.direction === 'server' ? 'server → client' : 'client → server'}</span>
      ${event.experimental && EXPERIMENTAL_BADGE} ${event.terminal && TERMINAL_BADGE} ${doc.inferred && INFERRED_BADGE}
    </h3>
    <p class="sub">${doc.title} · message <code>${event.name}</code> · payload <code>${event.payloadSchema}</code> in
      <code>${event.envelopeSchema}</code> · on ${doc.channelTitles.join(', ')}</p>
    <p>${inlineMarkdown(event.summary)}</p>
    <div class="fields-title">Payload fields</div>
    ${doc.description && html`<p class="sub">${event.payloadSchema}: ${inlineMarkdown(doc.description)}</p>`}
    ${fieldsTable(doc.fields)}
    ${
      doc.samples.length > 0 &&
      html`<div class="examples samples">
      <h4>With the TypeScript client</h4>
      ${doc.samples.map(
        (sample) => html`<div class="name">${sample.label}</div>
      <pre data-sample="${sample.lang.toLowerCase()}"><code>${sample.source}</code></pre>`,
      )}
    </div>`
    }
    <div class="examples">
      <h4>${event.examples.length === 1 ? 'Example' : `Examples (${event.examples.length})`}</h4>
      ${event.examples.map((example) => html`<pre data-example><code>${JSON.stringify(example, null, 2)}</code></pre>`)}
    </div>
  </article>`;
}

function fieldsTable(rows: readonly FieldRow[]): SafeHtml {
  if (rows.length === 0) return html`<p class="sub">No fields.</p>`;
  return html`<table class="fields">
    <thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>
    <tbody>${rows.map(
      (row) => html`<tr${row.inferred ? html` data-inferred-field` : ''}>
        <td class="name"><code>${row.path}</code>${row.required && html`<span class="req">required</span>`}</td>
        <td class="type">${row.type}</td>
        <td>${row.inferred && INFERRED_BADGE} ${inlineMarkdown(row.description)}
          ${row.constraints.length > 0 && html`<div class="constraints">${row.constraints.join(' · ')}</div>`}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}
