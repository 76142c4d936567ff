import { config } from './config';

/** Spec §7, §8: browser logs go to Datadog only from the production admin host, everything, at a 100 % sample rate. */
export const BROWSER_LOG_SERVICE = 'lightning-pay-admin-browser';

export interface ProductionLoggingSettings {
  hostname: string;
  productionHost: string;
  clientToken: string;
  site: string;
}

/**
 * Starts @datadog/browser-logs when, and only when, the page is served from the production admin host. The library
 * is loaded on demand, so other hosts never download it. Returns whether logging was started.
 */
export async function startProductionLogging(
  settings: ProductionLoggingSettings = {
    hostname: window.location.hostname,
    productionHost: config.productionHost,
    clientToken: config.datadogClientToken,
    site: config.datadogSite,
  },
): Promise<boolean> {
  if (settings.hostname !== settings.productionHost || !settings.clientToken) return false;
  const { datadogLogs } = await import('@datadog/browser-logs');
  datadogLogs.init({
    clientToken: settings.clientToken,
    site: settings.site,
    service: BROWSER_LOG_SERVICE,
    forwardErrorsToLogs: true,
    forwardConsoleLogs: 'all',
    sessionSampleRate: 100,
  });
  return true;
}
