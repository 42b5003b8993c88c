/** The HTML shell shared by the pages we render: head, inline stylesheet, top bar with the reference links. */
import { html, SafeHtml } from './html.js';
import { DOCS_CSS } from './styles.js';

/** What a page puts in the shell. */
export interface PageParts {
  /** The document title. */
  readonly title: string;
  /** The top bar's heading. */
  readonly heading: string;
  /** A line of context beside the heading (version, service version). */
  readonly meta: string;
  readonly body: SafeHtml;
}

/** A complete, self-contained HTML document (no external requests). */
export function page(parts: PageParts): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<style>${DOCS_CSS_SAFE}</style>
</head>
<body>
<header class="top">
  <h1>${parts.heading}</h1>
  <span class="meta">${parts.meta}</span>
  <nav><a href="index.html">Reference home</a><a href="rest.html">REST API</a><a href="events.html">Events</a></nav>
</header>
${parts.body}
</body>
</html>
`.value;
}

/** Our own constant, inserted raw: a `<style>` element's text is not entity-decoded. */
const DOCS_CSS_SAFE = new SafeHtml(DOCS_CSS);
