import * as z from 'zod/mini';

/**
 * Console configuration, read from Vite's build-time environment (VITE_*). Only public values belong here: the
 * bundle is public. Defaults target the local stack that `npm start` runs.
 */
const configSchema = z.object({
  apiBase: z.url(),
  productionHost: z.string(),
  datadogClientToken: z.string(),
  datadogSite: z.string(),
  /** How often an open console checks its permissions with the server (issue 13); tests shorten it. */
  permissionsRefreshMs: z.int().check(z.positive()),
});
export type ConsoleConfig = z.infer<typeof configSchema>;

export const config: ConsoleConfig = configSchema.parse({
  apiBase: import.meta.env.VITE_API_BASE || 'http://127.0.0.1:8787',
  productionHost: import.meta.env.VITE_PRODUCTION_HOST || 'admin.lightningpay.com',
  datadogClientToken: import.meta.env.VITE_DATADOG_CLIENT_TOKEN || '',
  datadogSite: import.meta.env.VITE_DATADOG_SITE || 'datadoghq.com',
  permissionsRefreshMs: Number(import.meta.env.VITE_PERMISSIONS_REFRESH_MS) || 60_000,
});

export function isProductionHost(hostname: string = globalThis.location?.hostname ?? ''): boolean {
  return hostname === config.productionHost;
}
