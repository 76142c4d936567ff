import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearRuntimeCaches, isAppShellCache } from './service-worker-caches';
import { registerServiceWorker } from './service-worker';

afterEach(() => vi.unstubAllGlobals());

describe('clearRuntimeCaches', () => {
  it('deletes every cache but the app-shell precache, and says which', async () => {
    const held = new Set(['lpa-precache-v2-https://admin.lightningpay.com/', 'lpa-runtime', 'workbox-precache-v2-x/']);
    const cacheStorage = { keys: async () => [...held], delete: async (name: string) => held.delete(name) };
    expect(await clearRuntimeCaches(cacheStorage)).toEqual(['lpa-runtime', 'workbox-precache-v2-x/']);
    expect([...held]).toEqual(['lpa-precache-v2-https://admin.lightningpay.com/']);
  });

  it('does nothing without Cache Storage', async () => {
    expect(await clearRuntimeCaches(undefined)).toEqual([]);
  });

  it("tells the console's precache from other caches", () => {
    expect(isAppShellCache('lpa-precache-v2-http://127.0.0.1:4183/')).toBe(true);
    expect(isAppShellCache('lpa-runtime')).toBe(false);
    expect(isAppShellCache('other-precache-v2-http://127.0.0.1:4183/')).toBe(false);
  });
});

describe('registerServiceWorker', () => {
  function browser(readyState: DocumentReadyState, register = vi.fn(async () => ({}))) {
    const window = new EventTarget();
    vi.stubGlobal('navigator', { serviceWorker: { register } });
    vi.stubGlobal('document', { readyState });
    vi.stubGlobal('window', window);
    return { register, window };
  }

  it('waits for the load event, then registers once', () => {
    const { register, window } = browser('interactive');
    registerServiceWorker('/sw.js');
    expect(register).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    window.dispatchEvent(new Event('load'));
    expect(register).toHaveBeenCalledExactlyOnceWith('/sw.js');
  });

  it('registers at once when the page has already loaded', () => {
    const { register } = browser('complete');
    registerServiceWorker('/sw.js');
    expect(register).toHaveBeenCalledExactlyOnceWith('/sw.js');
  });

  it('does nothing where service workers are not supported', () => {
    vi.stubGlobal('navigator', {});
    expect(() => registerServiceWorker('/sw.js')).not.toThrow();
  });

  it('only warns when registration fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    browser('complete', vi.fn(async () => Promise.reject(new Error('SecurityError'))));
    registerServiceWorker('/sw.js');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('will not work offline'), expect.any(Error));
    warn.mockRestore();
  });
});
