import type { Context } from 'hono';
import { errorEnvelopeSchema, type SessionErrorCode } from '../../src/contract/envelope';
import { responseSchema } from './openapi-schemas';

const errorEnvelope = responseSchema(errorEnvelopeSchema);

/** Declares the error envelope for the given statuses in a route's OpenAPI responses. */
export function errorResponses<const S extends readonly (400 | 401 | 403 | 404 | 500)[]>(...statuses: S) {
  const descriptions = {
    400: 'Invalid request: the message names the field',
    401: 'Session error: `error` is TokenExpired, NoTokenProvided or InvalidToken',
    403: 'Signed in, but not allowed',
    404: 'Not found',
    500: 'Server fault',
  } as const;
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: descriptions[status], content: { 'application/json': { schema: errorEnvelope } } },
    ]),
  ) as {
    [K in S[number]]: { description: string; content: { 'application/json': { schema: typeof errorEnvelope } } };
  };
}

export function failure(message: string) {
  return { success: false as const, message };
}

/** Spec §8: a session error carries its code in `error`; the console signs the user out on any of the three. */
export function sessionFailure(c: Context, code: SessionErrorCode, message: string) {
  return c.json({ success: false as const, error: code, message }, 401);
}

export function forbidden(c: Context, message: string) {
  return c.json(failure(message), 403);
}
