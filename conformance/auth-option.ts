/**
 * `--auth`: the credential the checks send, given as `bearer:TOKEN`, `basic:USER:PASS`, `header:NAME=VALUE`,
 * `query:NAME=VALUE` or `apikey:VALUE` (placed where the spec's API key scheme says), and how it goes on a request.
 */
import { UsageError } from '../generator/diagnostics.js';
import type { Ir, IrOperation, IrSecurityScheme } from '../generator/ir/model.js';

/** A parsed `--auth` value. */
export type AuthOption =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly user: string; readonly password: string }
  | { readonly kind: 'header' | 'query'; readonly name: string; readonly value: string }
  | { readonly kind: 'apikey'; readonly value: string };

const FORMS = 'bearer:TOKEN, basic:USER:PASS, header:NAME=VALUE, query:NAME=VALUE or apikey:VALUE';

/** Parses `--auth`; a value of no known form is a usage error naming the forms. */
export function parseAuth(text: string, option = '--auth'): AuthOption {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon).toLowerCase();
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  const named = (): { name: string; value: string } | undefined => {
    const eq = rest.indexOf('=');
    return eq > 0 ? { name: rest.slice(0, eq), value: rest.slice(eq + 1) } : undefined;
  };
  if (kind === 'bearer' && rest !== '') return { kind, token: rest };
  if (kind === 'apikey' && rest !== '') return { kind, value: rest };
  if (kind === 'basic' && rest.includes(':')) {
    const at = rest.indexOf(':');
    return { kind, user: rest.slice(0, at), password: rest.slice(at + 1) };
  }
  if (kind === 'header' || kind === 'query') {
    const pair = named();
    if (pair) return { kind, ...pair };
  }
  throw new UsageError(`${option} ${JSON.stringify(text)} is not one of ${FORMS}`);
}

/** Headers and query parameters that carry a credential. */
export interface CredentialParts {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
}

const NONE: CredentialParts = { headers: {}, query: {} };

/**
 * Where `auth` goes on a request of `op`: nowhere when the operation takes no credentials; `apikey:` where the
 * first API key scheme the operation accepts says (a cookie becomes a `Cookie` header).
 */
export function credentialParts(ir: Ir, op: IrOperation, auth: AuthOption | undefined): CredentialParts {
  return credentialFor(
    op.security.map((name) => ir.securitySchemes[name]),
    auth,
  );
}

/** Where `auth` goes given the schemes a request accepts (any one suffices): nowhere when it accepts none. */
export function credentialFor(
  schemes: readonly (IrSecurityScheme | undefined)[],
  auth: AuthOption | undefined,
): CredentialParts {
  if (auth === undefined || schemes.length === 0) return NONE;
  switch (auth.kind) {
    case 'bearer':
      return { headers: { Authorization: `Bearer ${auth.token}` }, query: {} };
    case 'basic':
      return {
        headers: { Authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` },
        query: {},
      };
    case 'header':
      return { headers: { [auth.name]: auth.value }, query: {} };
    case 'query':
      return { headers: {}, query: { [auth.name]: auth.value } };
    case 'apikey': {
      const scheme = schemes.find((s) => s?.type === 'apiKey');
      if (scheme?.type !== 'apiKey') return { headers: { Authorization: `Bearer ${auth.value}` }, query: {} };
      if (scheme.in === 'query') return { headers: {}, query: { [scheme.name]: auth.value } };
      if (scheme.in === 'cookie') return { headers: { Cookie: `${scheme.name}=${auth.value}` }, query: {} };
      return { headers: { [scheme.name]: auth.value }, query: {} };
    }
  }
}
