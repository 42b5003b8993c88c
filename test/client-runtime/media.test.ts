/** `mediaKind`: how each media type travels, shared by the generator, the client and the server. */
import { describe, expect, it } from 'vitest';
import { mediaKind } from '../../templates/shared/media.js';

describe('mediaKind', () => {
  it.each([
    ['application/json', 'json'],
    ['application/problem+json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/x-www-form-urlencoded', 'form'],
    ['multipart/form-data', 'multipart'],
    ['multipart/mixed; boundary=x', 'multipart'],
    ['text/event-stream', 'event-stream'],
    ['text/plain; charset=utf-8', 'text'],
    ['text/csv', 'text'],
    ['application/xml', 'text'],
    ['application/atom+xml', 'text'],
    ['application/octet-stream', 'binary'],
    ['image/png', 'binary'],
    ['*/*', 'binary'],
    ['application/jsonl', 'binary'],
  ])('%s travels as %s', (type, kind) => {
    expect(mediaKind(type)).toBe(kind);
  });
});
