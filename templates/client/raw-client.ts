/**
 * The openapi-fetch client behind `client.raw`, loaded with `import()` on its first call: every method of it returns
 * a promise already, so a page that never uses `raw` does not load openapi-fetch at all.
 */
import type { Client, ClientOptions, Middleware, PathSerializer } from 'openapi-fetch';
import { refuseDotSegment } from './url.js';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/** A `Client<Paths>` whose calls load and create the real client once; middleware given before is applied to it. */
export function lazyRawClient<Paths extends {}>(options: ClientOptions): Client<Paths> {
  const middleware: Middleware[] = [];
  let client: Client<Paths> | undefined;
  let loading: Promise<Client<Paths>> | undefined;
  const load = () =>
    (loading ??= import('openapi-fetch').then(({ default: createClient, defaultPathSerializer }) => {
      client = createClient<Paths>({ pathSerializer: refusingDotSegments(defaultPathSerializer), ...options });
      client.use(...middleware);
      return client;
    }));
  const call =
    (name: (typeof METHODS)[number] | 'request') =>
    (...args: unknown[]) =>
      load().then((loaded) => (loaded[name] as (...a: unknown[]) => unknown)(...args));
  return {
    ...Object.fromEntries(METHODS.map((name) => [name, call(name)])),
    request: call('request'),
    use(...added: Middleware[]) {
      middleware.push(...added);
      client?.use(...added);
    },
    eject(...removed: Middleware[]) {
      for (const m of removed) {
        const at = middleware.indexOf(m);
        if (at >= 0) middleware.splice(at, 1);
      }
      client?.eject(...removed);
    },
  } as unknown as Client<Paths>;
}

/** openapi-fetch's path serializer, refusing values that would become `.` or `..` segments (path traversal). */
function refusingDotSegments(serialize: PathSerializer): PathSerializer {
  return (pathname, pathParams) => {
    for (const [name, value] of Object.entries(pathParams))
      if (typeof value === 'string') refuseDotSegment(name, value);
    return serialize(pathname, pathParams);
  };
}
