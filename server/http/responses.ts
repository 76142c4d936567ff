import type { Context } from 'hono';
import { errorEnvelopeSchema, type SessionErrorCode } from '../../src/contract/envelope';
import { responseSchema } from './openapi-schemas';

const errorEnvelope = responseSchema(errorEnvelopeSchema);

/** Declares the error envelope for the given statuses in a route's OpenAPI responses. */
export function errorResponses<const S extends readonly (400 | 401 | 403 | 404 | 409 | 500)[]>(...statuses: S) {
  const descriptions = {
    400: 'Invalid request: the message names the field',
    401: 'Session error: `error` is TokenExpired, NoTokenProvided or InvalidToken',
    403: 'Signed in, but not allowed',
    404: 'Not found',
    409: 'Conflict: the record changed since it was read (`data` says who and when), or the change is not possible now',
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

/** A 400 a form can place at its fields (`data.fieldErrors`: field → message), with one sentence for the rest. */
export function invalidFields(fieldErrors: Record<string, string>) {
  const message = `Invalid request body: ${Object.entries(fieldErrors)
    .map(([field, text]) => `${field}: ${text}`)
    .join('; ')}`;
  return { success: false as const, message, data: { fieldErrors } };
}

/** A 409 with what the client needs to explain it (who changed the record, when, its version now). */
export function conflictFailure<T>(message: string, data: T) {
  return { success: false as const, message, data };
}

/** Spec §8: a session error carries its code in `error`; the console signs the user out on any of the three. */
export function sessionFailure(c: Context, code: SessionErrorCode, message: string) {
  return c.json({ success: false as const, error: code, message }, 401);
}

export function forbidden(c: Context, message: string) {
  return c.json(failure(message), 403);
}
