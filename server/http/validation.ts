import type { Hook } from '@hono/zod-openapi';
import type { Env, ValidationTargets } from 'hono';
import type { ZodError } from 'zod';
import { describeIssues, formatIssuePath } from './zod-issues';
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
  if (result.success) return undefined;
  const message = describeValidationError(result.target, result.error);
  if (result.target !== 'json') return c.json(failure(message), 400);
  // A body comes from a form: each field's first message, so the form can show it at that field.
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const [description] = describeIssues([issue]);
    const field = formatIssuePath(issue.path) || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
    if (description && !(field in fieldErrors)) fieldErrors[field] = description.replace(`${field}: `, '');
  }
  return c.json({ ...failure(message), data: { fieldErrors } }, 400);
};
