/**
 * The `Service-Version` check every request passes after `authenticate` (the header, or the `service_version` query
 * parameter where the version is optional).
 */
import { HttpError } from './errors.js';
import type { IncomingRequest } from './handlers.js';
import type { ServiceVersionRule } from './route.js';

/** The query parameter that may replace the header on routes where the version is optional. */
export const SERVICE_VERSION_QUERY = 'service_version';

/** Throws 400 `missing_service_version` or `unsupported_service_version` when the request breaks `rule`. */
export function checkServiceVersion(
  request: Pick<IncomingRequest, 'headers' | 'query'>,
  rule: ServiceVersionRule,
  supported: string,
): void {
  if (rule === 'none') return;
  const header = request.headers['service-version'];
  const given = rule === 'optional' ? [header, request.query[SERVICE_VERSION_QUERY]] : [header];
  if (rule === 'required' && header === undefined) {
    throw new HttpError(400, 'missing_service_version', `The Service-Version header is required; use ${supported}.`);
  }
  for (const value of given) {
    if (value !== undefined && value !== supported) {
      const shown = Array.isArray(value) ? value.join(', ') : value;
      throw new HttpError(
        400,
        'unsupported_service_version',
        `Service-Version ${JSON.stringify(shown)} is not supported; use ${supported}.`,
      );
    }
  }
}
