/**
 * Authentication of every request: the route's `security` decides which credentials count. The API key comes from
 * `Authorization: Bearer`; `?token=` only where the route allows `conversationToken` (the stream and the session).
 */
import type { IncomingRequest, RouteDefinition } from '../../generated/src/server.gen.js';
import { type Credentials, type Principal, requireWrite } from '../auth.js';
import { serviceError } from '../errors.js';
import type { ReferenceService } from '../service.js';
import { callService } from './errors.js';

/** What `authenticateCaller` needs of the service. */
export type CallerAuthenticator = Pick<ReferenceService, 'authenticate'>;

/**
 * The principal of a request, or `HttpError` 401 (missing, unknown, expired or misplaced credentials), 403 (a `read`
 * key on a write: every method but GET) or 429 (rate limit, with `Retry-After`); before the request is read further,
 * so a read key's write is 403 whatever its body. On a route without `conversationToken`, `?token=` is never looked
 * up: without an API key it is 401 `unauthorized`.
 */
export function authenticateCaller(
  service: CallerAuthenticator,
  request: Pick<IncomingRequest, 'headers' | 'query'>,
  route: RouteDefinition,
): Promise<Principal> {
  return callService(async () => {
    const principal = await service.authenticate(credentialsOf(request, route));
    if (route.method !== 'GET') requireWrite(principal);
    return principal;
  });
}

/** The credentials `route` accepts from `request`. */
function credentialsOf(request: Pick<IncomingRequest, 'headers' | 'query'>, route: RouteDefinition): Credentials {
  const { authorization } = request.headers;
  const token = request.query.token;
  if (token === undefined) return { authorization };
  if (!route.security.includes('conversationToken')) {
    if (authorization !== undefined) return { authorization };
    throw serviceError(
      'unauthorized',
      'A conversation token opens only its event stream and session; send Authorization: Bearer <API_KEY>.',
    );
  }
  // A repeated `token` is not a token: the empty string is unknown, so 401.
  return { authorization, token: typeof token === 'string' ? token : '' };
}
