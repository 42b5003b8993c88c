/**
 * The first step of every request, on every transport: `authenticate` (a request without valid credentials is 401
 * whatever else is wrong with it), then the Service-Version check.
 */
import type { IncomingRequest } from './handlers.js';
import type { ResolvedOptions } from './options.js';
import type { RouteDefinition } from './route.js';
import { checkServiceVersion } from './service-version.js';

/** Throws `HttpError` when the request is refused; returns what `authenticate` returned. */
export async function admit(
  route: RouteDefinition,
  request: IncomingRequest,
  options: Pick<ResolvedOptions, 'serviceVersion' | 'authenticate'>,
): Promise<unknown> {
  const auth = await options.authenticate(request, route);
  checkServiceVersion(request, route.serviceVersion, options.serviceVersion);
  return auth;
}
