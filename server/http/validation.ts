import type { Hook } from '@hono/zod-openapi';
import type { Env, ValidationTargets } from 'hono';
import type { ZodError } from 'zod';
import { describeIssues } from '../zod-issues';
import { failure } from './responses';

const TARGET_NAMES: Partial<Record<keyof ValidationTargets, string>> = {
  json: 'request body',
  query: 'query',
  param: 'path parameter',
  header: 'header',
};

/** One sentence naming each offending field, e.g. `Invalid request body: email is required`. */
export function describeValidationError(target: keyof ValidationTargets, error: ZodError): string {
  return `Invalid ${TARGET_NAMES[target] ?? target}: ${describeIssues(error.issues).join('; ')}`;
}

/** The OpenAPIHono defaultHook: every schema failure becomes a 400 envelope instead of zod's raw error. */
export const validationHook: Hook<unknown, Env, string, Response | undefined> = (result, c) => {
  if (!result.success) return c.json(failure(describeValidationError(result.target, result.error)), 400);
  return undefined;
};
