/**
 * The base of every error the client raises, the shared `ValidationError` included. It lives here, with no
 * dependency, so that the validators (and the server runtime) can use it without the client.
 */
export class CasiError extends Error {
  override readonly name: string = 'CasiError';
}
