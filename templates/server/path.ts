/** OpenAPI path templates: conversion to Fastify's `:param` form and matching of concrete paths. */

const PARAM = /\{([^}/]+)\}/g;

/** `/conversations/{conversation_id}` → `/conversations/:conversation_id`. */
export function toFastifyPath(openApiPath: string): string {
  return openApiPath.replace(PARAM, (_, name: string) => `:${name}`);
}

/**
 * A compiled path template: `match` returns the decoded parameters, `matchEncoded` them as the path carries them
 * (still percent-encoded); either null when the path does not fit.
 */
export interface PathMatcher {
  readonly template: string;
  match(path: string): Record<string, string> | null;
  matchEncoded(path: string): Record<string, string> | null;
}

/** Compiles an OpenAPI path template; each parameter matches one non-empty segment. */
export function compilePath(template: string): PathMatcher {
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const found of template.matchAll(PARAM)) {
    source += escapeRegExp(template.slice(last, found.index));
    source += '([^/]+)';
    names.push(found[1] ?? '');
    last = found.index + found[0].length;
  }
  source += escapeRegExp(template.slice(last));
  const regExp = new RegExp(`^${source}$`);
  const matchWith = (path: string, decode: (segment: string) => string | null) => {
    const groups = regExp.exec(path);
    if (groups === null) return null;
    const params: Record<string, string> = {};
    for (const [index, name] of names.entries()) {
      const value = decode(groups[index + 1] ?? '');
      if (value === null) return null;
      params[name] = value;
    }
    return params;
  };
  return {
    template,
    match: (path) => matchWith(path, safeDecode),
    matchEncoded: (path) => matchWith(path, (segment) => segment),
  };
}

/** The path of a request target without its query string. */
export function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
