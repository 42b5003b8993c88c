/**
 * Who may use the console's API, which acts for the first organisation without an API key: only a browser on this
 * machine, on a loopback host name, from the console's own origin (no other site, no DNS rebinding).
 */

/** The parts of a request the guard looks at. */
export interface GuardInput {
  /** The peer's address (`request.socket.remoteAddress`). */
  readonly remoteAddress: string | undefined;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** `Sec-Fetch-Site`, sent by browsers. */
  readonly fetchSite: string | undefined;
}

const LOOPBACK_ADDRESS = /^(?:127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/;
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/** Why the request is refused, or null when it may go on. */
export function refusal(input: GuardInput): string | null {
  if (input.remoteAddress === undefined || !LOOPBACK_ADDRESS.test(input.remoteAddress)) {
    return 'The console answers only requests from this machine.';
  }
  if (input.host === undefined || !LOOPBACK_HOST.test(input.host)) {
    return 'The console answers only on a loopback address (127.0.0.1, localhost or [::1]).';
  }
  if (input.origin !== undefined && input.origin !== `http://${input.host.toLowerCase()}`) {
    return 'The console answers only its own page.';
  }
  if (input.fetchSite !== undefined && input.fetchSite !== 'same-origin' && input.fetchSite !== 'none') {
    return 'The console answers only its own page.';
  }
  return null;
}
