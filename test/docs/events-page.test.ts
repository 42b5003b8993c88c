/** The events page renderer on crafted input: everything from the specs is escaped, marks follow the model. */
import { describe, expect, it } from 'vitest';
import type { EventsDoc } from '../../generator/docs/events-model.js';
import { eventAnchor, renderEventsPage } from '../../generator/docs/events-page.js';
import type { IrEvent } from '../../generator/ir/model.js';

const EVIL = '<img src=x onerror="alert(1)">';

function event(over: Partial<IrEvent>): IrEvent {
  return {
    name: 'ThingHappenedEvent',
    type: 'thing.happened',
    payloadSchema: 'ThingHappened',
    envelopeSchema: 'ServerEvent',
    direction: 'server',
    channels: ['stream'],
    experimental: false,
    terminal: false,
    summary: `Something ${EVIL} happened.`,
    examples: [{ payload: { type: 'thing.happened', note: '</script><script>alert(1)</script>' } }],
    ...over,
  };
}

const doc: EventsDoc = {
  title: `Title ${EVIL}`,
  version: '1.0',
  serviceVersion: '2025-01-01',
  overview: `**Ordering.** First ${EVIL}, then \`x < y\`.`,
  channels: [
    {
      id: 'stream',
      title: 'Stream',
      address: '/things/{id}/events',
      description: EVIL,
      inferred: true,
      protocol: 'https',
      eventTypes: ['thing.happened'],
      operations: [{ id: 'send', action: 'send', title: 'Send', summary: EVIL, description: '', inferred: false }],
    },
  ],
  envelopes: [{ name: 'ServerEvent', description: 'The envelope.', fields: [] }],
  events: [
    {
      event: event({ examples: [{ a: 1 }, { b: '<2>' }] }),
      title: 'Thing happened',
      description: '',
      inferred: false,
      channelTitles: ['Stream'],
      samples: [{ lang: 'TypeScript', label: 'Receive it', source: `session.on('thing.happened', () => '${EVIL}');` }],
      fields: [
        {
          path: 'note',
          type: 'string',
          required: true,
          description: EVIL,
          constraints: ['at most 4 characters'],
          inferred: true,
        },
      ],
    },
    {
      event: event({
        name: 'PokeEvent',
        type: 'poke',
        direction: 'client',
        envelopeSchema: 'ClientEvent',
        experimental: true,
        terminal: true,
      }),
      title: 'Poke',
      description: 'A poke.',
      inferred: true,
      channelTitles: ['Stream'],
      samples: [],
      fields: [],
    },
  ],
};

describe('renderEventsPage', () => {
  const page = renderEventsPage(doc);

  it('escapes every text from the specs and has no script at all', () => {
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;');
  });

  it('shows the TypeScript samples of an event, escaped, and no samples block for an event without any', () => {
    expect(page).toContain(
      '<pre data-sample="typescript"><code>session.on(&#39;thing.happened&#39;, () =&gt; &#39;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;);</code></pre>',
    );
    expect(page.match(/<pre data-sample=/g)).toHaveLength(1);
    const poke = page.slice(page.indexOf('data-event-type="poke"'));
    expect(poke).not.toContain('With the TypeScript client');
  });

  it('renders the overview Markdown', () => {
    expect(page).toContain('<strong>Ordering.</strong>');
    expect(page).toContain('<code>x &lt; y</code>');
  });

  it('shows every example of every event', () => {
    expect(page).toContain(`id="${eventAnchor('thing.happened')}"`);
    expect(page).toContain('Examples (2)');
    expect(page).toContain('&quot;b&quot;: &quot;&lt;2&gt;&quot;');
    expect(page.match(/<pre data-example>/g)).toHaveLength(3);
  });

  it('marks inferred channels, events and fields, experimental and terminal events', () => {
    expect(page.match(/data-inferred-field/g)).toHaveLength(1);
    const poke = page.slice(page.indexOf('data-event-type="poke"'));
    expect(poke).toContain('data-experimental');
    expect(poke).toContain('Terminal');
    expect(poke).toContain('data-inferred');
    expect(poke).toContain('client → server');
    const stream = page.slice(page.indexOf('id="channel-stream"'));
    expect(stream.slice(0, stream.indexOf('</h3>'))).toContain('data-inferred');
  });
});
