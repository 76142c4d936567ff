import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { failure } from './responses';

export type LogError = (message: string, error: unknown) => void;

/**
 * Hono raises HTTPException for the client's mistakes (malformed JSON 400, wrong content type 415): those keep their
 * status. Anything else is a fault of ours: logged, and answered with a 500 that leaks no detail.
 */
export function envelopeErrorHandler(logError: LogError): ErrorHandler {
  return (error, c: Context) => {
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(failure(error.message || 'Bad request'), error.status);
    }
    logError(`${c.req.method} ${c.req.path} failed`, error);
    return c.json(failure('Internal server error'), 500);
  };
}

export const envelopeNotFound: NotFoundHandler = (c) =>
  c.json(failure(`Not found: ${c.req.method} ${c.req.path}`), 404);
