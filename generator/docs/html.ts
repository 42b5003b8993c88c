/** HTML building for the docs pages: every interpolated value is escaped unless it is already `SafeHtml`. */

/** A fragment of markup that is already safe to insert as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A value `html` accepts: text (escaped), safe markup, or a list of them; `null`/`undefined`/`false` add nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; nested `html` results and arrays are inserted as is. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** A slug usable as an element id and URL fragment: lower case, `[a-z0-9-]` only. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Inline Markdown of the specs' descriptions: `code`, **bold**, *emphasis* and relative or http(s) links. */
export function inlineMarkdown(text: string): SafeHtml {
  const parts = text.split(/(`[^`]*`)/);
  const out = parts.map((part) => {
    if (part.length >= 2 && part.startsWith('`') && part.endsWith('`')) {
      return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
    }
    return escapeHtml(part)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, '$1<em>$2</em>')
      .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\.{0,2}\/|#|[\w-]+\.html)[^)\s]*)\)/g, '<a href="$2">$1</a>');
  });
  return new SafeHtml(out.join(''));
}

/** Block Markdown: paragraphs separated by blank lines, and `- ` bullet lists; each line through `inlineMarkdown`. */
export function markdown(text: string): SafeHtml {
  const blocks = text.trim().split(/\n\s*\n/);
  return html`${blocks.map((block) => {
    const lines = block.split('\n').map((line) => line.trim());
    if (lines.every((line) => line.startsWith('- '))) {
      return html`<ul>${lines.map((line) => html`<li>${inlineMarkdown(line.slice(2))}</li>`)}</ul>`;
    }
    return html`<p>${inlineMarkdown(lines.join(' '))}</p>`;
  })}`;
}
