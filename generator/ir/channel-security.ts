/**
 * The security schemes of an AsyncAPI channel, as its client places the credential: those of its operations, else
 * those of its servers. 2.6 names them (`[{token: []}]`), 3.x refers to them (`[{$ref: …}]`) or writes them inline.
 */
import { resolveLocal, valueAt } from '../load/refs.js';
import type { IrSecurityScheme } from './model.js';

type Obj = Record<string, unknown>;

/** The schemes by name, operations' first; empty when neither the operations nor the servers declare any. */
export function channelSecurity(
  doc: Obj,
  operations: readonly Obj[],
  servers: readonly string[],
  v3: boolean,
): Record<string, IrSecurityScheme> {
  const fromOperations = operations.flatMap((operation) => requirements(doc, operation.security, v3));
  const all = (doc.servers ?? {}) as Obj;
  const chosen =
    fromOperations.length > 0
      ? fromOperations
      : servers.flatMap((name) => requirements(doc, resolveLocal(doc, all[name]).security, v3));
  const out: Record<string, IrSecurityScheme> = {};
  for (const [name, scheme] of chosen) {
    const placed = placement(scheme);
    if (placed !== undefined && out[name] === undefined) out[name] = placed;
  }
  return out;
}

/** The `[name, scheme]` pairs a `security` list gives. */
function requirements(doc: Obj, security: unknown, v3: boolean): [string, Obj][] {
  if (!Array.isArray(security)) return [];
  return security.flatMap((entry, index): [string, Obj][] => {
    if (!v3) {
      const schemes = resolveLocal(doc, valueAt(doc, '/components/securitySchemes'));
      return Object.keys(resolveLocal(doc, entry)).map((name) => [name, resolveLocal(doc, schemes[name])]);
    }
    const ref = (entry as Obj | null)?.$ref;
    const name = typeof ref === 'string' ? decodeURIComponent(ref.split('/').pop() ?? '') : `scheme${index + 1}`;
    return [[name, resolveLocal(doc, entry)]];
  });
}

/**
 * How a scheme's credential travels on a WebSocket or HTTP request: `httpApiKey` in the query, a header or a cookie;
 * `http` basic and `userPassword` as basic; other `http` schemes, `oauth2` and `openIdConnect` as a bearer token.
 * Broker schemes (`apiKey` as user or password, SASL, X.509, …) have no place there.
 */
function placement(scheme: Obj): IrSecurityScheme | undefined {
  const type = String(scheme.type ?? '');
  const where = String(scheme.in ?? '');
  if (type === 'httpApiKey' && (where === 'query' || where === 'header' || where === 'cookie'))
    return { type: 'apiKey', in: where, name: String(scheme.name ?? '') };
  if (type === 'userPassword' || (type === 'http' && String(scheme.scheme).toLowerCase() === 'basic'))
    return { type: 'basic' };
  if (type === 'http' || type === 'oauth2' || type === 'openIdConnect' || type === 'httpBearer')
    return { type: 'bearer' };
  return undefined;
}
