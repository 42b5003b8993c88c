/** The first step of every request, on every transport: the Service-Version check, then `authenticate`. */
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
  checkServiceVersion(request, route.serviceVersion, options.serviceVersion);
  return options.authenticate(request, route);
}
