/** How a security scheme carries the caller's credential, as the client and the channel descriptors name it. */

/** One scheme: a bearer token (http bearer, OAuth 2, OpenID Connect), basic, or an API key. */
export type SecurityScheme =
  | { readonly type: 'bearer' }
  | { readonly type: 'basic' }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string };
