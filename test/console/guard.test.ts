/** Who may call the console's API: this machine, on a loopback host name, from the console's own origin. */
import { describe, expect, it } from 'vitest';
import { type GuardInput, refusal } from '../../reference/console/guard.js';

const OK: GuardInput = { remoteAddress: '127.0.0.1', host: '127.0.0.1:4010', origin: undefined, fetchSite: undefined };

describe('refusal', () => {
  it.each<[string, Partial<GuardInput>]>([
    ['a same-origin GET (no Origin)', {}],
    ['a same-origin POST', { origin: 'http://127.0.0.1:4010', fetchSite: 'same-origin' }],
    ['localhost', { host: 'localhost:4010', origin: 'http://localhost:4010' }],
    ['IPv6 loopback', { remoteAddress: '::1', host: '[::1]:4010' }],
    ['IPv4-mapped loopback', { remoteAddress: '::ffff:127.0.0.1' }],
    ['a typed address (Sec-Fetch-Site: none)', { fetchSite: 'none' }],
  ])('allows %s', (_name, over) => expect(refusal({ ...OK, ...over })).toBeNull());

  it.each<[string, Partial<GuardInput>]>([
    ['another machine', { remoteAddress: '192.168.1.20' }],
    ['an unknown peer', { remoteAddress: undefined }],
    ['a rebound DNS name', { host: 'evil.example:4010' }],
    ['no Host', { host: undefined }],
    ['another origin', { origin: 'http://evil.example' }],
    ['another port of this machine', { origin: 'http://127.0.0.1:9999' }],
    ['a cross-site fetch without Origin', { fetchSite: 'cross-site' }],
    ['a same-site fetch from another port', { fetchSite: 'same-site' }],
  ])('refuses %s', (_name, over) => expect(refusal({ ...OK, ...over })).toMatch(/console answers only/));
});
