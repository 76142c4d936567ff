import { createRoute, z } from '@hono/zod-openapi';
import { successEnvelope } from '../../src/contract/envelope';
import type { ApiApp } from '../http/api-app';
import { responseSchema } from '../http/openapi-schemas';

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['ops'],
  summary: 'Liveness check, no authentication',
  responses: {
    200: {
      description: 'The API is up',
      content: { 'application/json': { schema: responseSchema(successEnvelope(z.object({ ok: z.literal(true) }))) } },
    },
  },
});

export function registerHealthRoute(app: ApiApp): void {
  app.openapi(healthRoute, (c) => c.json({ success: true as const, data: { ok: true as const } }, 200));
}
