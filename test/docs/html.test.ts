/** The docs pages' HTML helpers: escaping, the `html` template, and the Markdown subset of the specs. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, inlineMarkdown, markdown, type SafeHtml, slug } from '../../generator/docs/html.js';

describe('escapeHtml', () => {
  it.each([
    ['plain', 'plain'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [`"quoted" & 'single'`, '&quot;quoted&quot; &amp; &#39;single&#39;'],
    ['&amp;', '&amp;amp;'],
  ])('%j', (given, want) => expect(escapeHtml(given)).toBe(want));
});

describe('html', () => {
  it.each([
    ['text is escaped', html`<p>${'<b>'}</p>`, '<p>&lt;b&gt;</p>'],
    ['safe markup is kept', html`<p>${html`<b>${'x'}</b>`}</p>`, '<p><b>x</b></p>'],
    ['arrays are joined', html`<ul>${['a', '<', html`<i>c</i>`]}</ul>`, '<ul>a&lt;<i>c</i></ul>'],
    ['nothing for null, undefined and false', html`[${null}${undefined}${false}]`, '[]'],
    ['numbers', html`${0} ${42}`, '0 42'],
    ['attributes cannot be broken out of', html`<a title="${'x" onclick="y'}">`, '<a title="x&quot; onclick=&quot;y">'],
  ])('%s', (_name, given: SafeHtml, want) => expect(given.value).toBe(want));
});

describe('inlineMarkdown', () => {
  it.each([
    ['`a < b`', '<code>a &lt; b</code>'],
    ['**Ordering.** text', '<strong>Ordering.</strong> text'],
    ['it *sends* events', 'it <em>sends</em> events'],
    ['see [events](events.html)', 'see <a href="events.html">events</a>'],
    ['[x](https://example.org/a?b=1&c=2)', '<a href="https://example.org/a?b=1&amp;c=2">x</a>'],
    ['[bad](javascript:alert(1))', '[bad](javascript:alert(1))'],
    ['`**not bold**`', '<code>**not bold**</code>'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
  ])('%j', (given, want) => expect(inlineMarkdown(given).value).toBe(want));
});

describe('markdown', () => {
  it('makes paragraphs and lists', () => {
    expect(markdown('One\nline.\n\n- a\n- `b`\n\nTwo').value).toBe(
      '<p>One line.</p><ul><li>a</li><li><code>b</code></li></ul><p>Two</p>',
    );
  });
});

describe('slug', () => {
  it.each([
    ['agent.message.delta', 'agent-message-delta'],
    ['conversationEvents', 'conversationevents'],
    ['  A  b ', 'a-b'],
  ])('%j', (given, want) => expect(slug(given)).toBe(want));
});
