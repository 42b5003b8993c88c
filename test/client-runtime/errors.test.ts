/** errorFromResponse: one class per status family, the body's fields, and non-`Error` bodies. */
import { describe, expect, it } from 'vitest';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  ApiUserAbortError,
  AuthenticationError,
  BadRequestError,
  CasiError,
  ConflictError,
  errorFromResponse,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TeapotError,
} from '../../templates/client/errors.js';
import { assertValid, ValidationError } from '../../templates/shared/errors.js';
import type { Validator } from '../../templates/shared/validation.js';

const body = (code: string, transient = false) => ({ code, transient, message: `${code} happened` });

describe('errorFromResponse', () => {
  const table: [number, new (...args: never[]) => ApiError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [405, MethodNotAllowedError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [418, TeapotError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [599, InternalServerError],
    [402, ApiError],
    [422, ApiError],
  ];
  it.each(table)('status %i gives %o', (status, ErrorClass) => {
    const error = errorFromResponse(status, body('some_code'), new Headers({ 'x-request-id': 'r1' }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(CasiError);
    expect(error.status).toBe(status);
    expect(error.code).toBe('some_code');
    expect(error.message).toBe('some_code happened');
    expect(error.headers.get('x-request-id')).toBe('r1');
    expect(error.name).toBe(ErrorClass.name);
  });

  it('keeps transient and data from the Error body', () => {
    const error = errorFromResponse(400, { ...body('invalid_request'), data: [{ pointer: '/name' }] });
    expect(error.transient).toBe(false);
    expect(error.data).toEqual([{ pointer: '/name' }]);
    expect(errorFromResponse(503, body('service_unavailable', true)).transient).toBe(true);
  });

  it.each([
    ['plain text', 'upstream exploded', 'upstream exploded'],
    ['another JSON shape', { error: 'nope' }, '{"error":"nope"}'],
    ['an Error missing transient', { code: 'x', message: 'y' }, '{"code":"x","message":"y"}'],
    ['no body', undefined, '502 status code (no body)'],
    ['an empty string', '', '502 status code (no body)'],
  ])('a body that is %s gives unknown_error', (_name, given, message) => {
    const error = errorFromResponse(502, given);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('unknown_error');
    expect(error.message).toBe(message);
    expect(error.transient).toBeUndefined();
  });

  it('narrows code through an instantiation expression, as a generated client does', () => {
    type Code = 'not_found' | 'rate_limited' | (string & {});
    const TypedApiError = ApiError<Code>;
    const error: unknown = errorFromResponse(404, body('not_found'));
    if (!(error instanceof TypedApiError)) throw new Error('expected an ApiError');
    const code: Code = error.code;
    expect(code).toBe('not_found');
  });
});

describe('ValidationError', () => {
  it('is a CasiError, as every error the client throws', () => {
    const never = Object.assign((_: unknown): _ is never => false, {
      errors: [{ pointer: '/name', message: 'must be string', keyword: 'type' }],
      schemaName: 'Item',
    }) as Validator<never>;
    const error = (() => {
      try {
        return assertValid(never, {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(CasiError);
    expect(error).toMatchObject({ name: 'ValidationError', message: 'Item is invalid: /name: must be string' });
  });
});

describe('connection errors', () => {
  it('are CasiErrors but not ApiErrors', () => {
    for (const error of [new ApiConnectionError(), new ApiTimeoutError(), new ApiUserAbortError()]) {
      expect(error).toBeInstanceOf(CasiError);
      expect(error).not.toBeInstanceOf(ApiError);
    }
    expect(new ApiTimeoutError()).toBeInstanceOf(ApiConnectionError);
    expect(new ApiConnectionError('boom', { cause: 'x' }).cause).toBe('x');
  });
});
