/** A tiny DOM builder for the console page: attributes and text only (never HTML strings), so nothing is injected. */

/** What `h` accepts as a child: a node, text, or nothing. */
export type Child = Node | string | null | undefined | false;

/** Creates `<tag attrs…>children…</tag>`; attributes whose value is `undefined` are left out. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) element.setAttribute(name, value);
  element.append(...nodes(...children));
  return element;
}

/** The children worth adding: nodes and text, without the empty ones (for `append` and `replaceChildren`). */
export function nodes(...children: Child[]): (Node | string)[] {
  return children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false);
}

/** The element with `id`; throws when the page lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the console page has no #${id}`);
  return element as T;
}

/** `12:04:05` of an ISO time, in local time. */
export function clock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString([], { hour12: false });
}
