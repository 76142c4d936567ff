import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import * as z from 'zod/mini';
import { failure } from '../http/responses';
import { describeIssues } from '../http/zod-issues';

/**
 * What the development routes (/dev/*, registered only with DEV_SEED=1) share: they answer tools on this machine
 * only, never a web page (browsers send Origin on cross-site POSTs; the CLIs and the tests' request contexts do not).
 */

function isLoopback(address: string | undefined): boolean {
  return address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (e.g. app.request in tests without a socket): the caller is unknown.
    return undefined;
  }
}

/** A 403 saying `message` unless the request comes from a tool on this machine; null when it does. */
export function refuseUnlessLocalTool(c: Context, message: string): Response | null {
  if (isLoopback(remoteAddress(c)) && !c.req.header('Origin')) return null;
  return c.json(failure(message), 403);
}

/** The JSON body parsed with `schema`, or a 400 naming the first offending field. */
export async function parseDevBody<S extends z.ZodMiniType>(
  c: Context,
  schema: S,
): Promise<{ data: z.infer<S>; refused?: never } | { data?: never; refused: Response }> {
  const parsed = z.safeParse(schema, await c.req.json().catch(() => undefined));
  if (parsed.success) return { data: parsed.data };
  const [first = 'body: invalid'] = describeIssues(parsed.error.issues.slice(0, 1));
  return { refused: c.json(failure(`Invalid request body: ${first}`), 400) };
}
