import { beforeEach, describe, expect, it, vi } from 'vitest';

const init = vi.fn();
vi.mock('@datadog/browser-logs', () => ({ datadogLogs: { init } }));

const { startProductionLogging, BROWSER_LOG_SERVICE } = await import('./production-logging');

const settings = {
  productionHost: 'admin.lightningpay.com',
  clientToken: 'pub0123456789abcdef',
  site: 'datadoghq.com',
};

describe('production browser logging', () => {
  beforeEach(() => init.mockClear());

  it('starts on the production admin host with errors and all console output at 100 %', async () => {
    expect(await startProductionLogging({ ...settings, hostname: 'admin.lightningpay.com' })).toBe(true);
    expect(init).toHaveBeenCalledExactlyOnceWith({
      clientToken: 'pub0123456789abcdef',
      site: 'datadoghq.com',
      service: BROWSER_LOG_SERVICE,
      forwardErrorsToLogs: true,
      forwardConsoleLogs: 'all',
      sessionSampleRate: 100,
    });
  });

  it.each(['localhost', '127.0.0.1', 'staging-admin.lightningpay.com', 'admin.lightningpay.com.evil.test'])(
    'initialises nothing on %s',
    async (hostname) => {
      expect(await startProductionLogging({ ...settings, hostname })).toBe(false);
      expect(init).not.toHaveBeenCalled();
    },
  );

  it('initialises nothing without a client token', async () => {
    expect(await startProductionLogging({ ...settings, clientToken: '', hostname: 'admin.lightningpay.com' })).toBe(false);
    expect(init).not.toHaveBeenCalled();
  });
});
