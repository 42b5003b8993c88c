/** The URL of a channel: a base URL, the address with its parameters filled in, and a query. */
import type { ChannelDescriptor } from '../shared/channel.js';
import { CasiError } from './errors.js';
import { type Credentials, placeCredentials } from './security.js';

/** What a channel's URL is built from: the base (default: the document's server), parameters and query. */
export interface ChannelUrlParts {
  readonly baseUrl?: string | undefined;
  readonly params?: object | undefined;
  readonly query?: object | undefined;
}

/** The base with the address appended, each `{parameter}` filled in (encoded), and each defined query member. */
export function channelUrl(channel: Pick<ChannelDescriptor, 'name' | 'address' | 'url'>, parts: ChannelUrlParts): URL {
  const base = parts.baseUrl ?? channel.url;
  if (base === undefined) throw new CasiError(`The channel ${channel.name} needs a baseUrl: the document names none.`);
  const path = channel.address.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (parts.params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null)
      throw new CasiError(`The channel ${channel.name} needs the parameter ${name}.`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(`${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [name, value] of Object.entries(parts.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== undefined) url.searchParams.append(name, String(item));
  }
  return url;
}

/** A channel's URL and headers with the caller's credential placed as the channel's first matching scheme says. */
export function channelRequest(
  channel: Pick<ChannelDescriptor, 'name' | 'address' | 'url' | 'security'>,
  parts: ChannelUrlParts & Credentials & { readonly headers?: Record<string, string> | undefined },
): { url: URL; headers: Record<string, string>; credentialHeaders: string[] } {
  const schemes = channel.security ?? {};
  const placed = placeCredentials(Object.keys(schemes), schemes, parts);
  const url = channelUrl(channel, { ...parts, query: { ...parts.query, ...placed.query } });
  return {
    url,
    headers: { ...placed.headers, ...parts.headers },
    credentialHeaders: Object.keys(placed.headers),
  };
}
