import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the helper for each test: whether the app has released idle imports is module state. */
async function freshIdleImport() {
  vi.resetModules();
  return import('./idle-import');
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('idle-time imports', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('wait for the app to release them, then a moment and idle time, then load once and tell their subscribers', async () => {
    const idle = await freshIdleImport();
    const load = vi.fn(async () => ({ name: 'radix' }));
    const module = idle.importWhenIdle(load);
    const listener = vi.fn();
    module.subscribe(listener);

    await vi.advanceTimersByTimeAsync(5000);
    expect(load).not.toHaveBeenCalled();
    expect(module.current()).toBeNull();

    idle.releaseIdleImports();
    await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_SETTLE_MS + idle.IDLE_IMPORT_FALLBACK_MS - 1);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledOnce();
    expect(module.current()).toEqual({ name: 'radix' });
    expect(listener).toHaveBeenCalledOnce();
    await expect(idle.idleImportsSettled()).resolves.toEqual([{ name: 'radix' }]);
  });

  it('use requestIdleCallback with a timeout where the browser has it', async () => {
    const requestIdleCallback = vi.fn((callback: () => void) => setTimeout(callback, 50));
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    const idle = await freshIdleImport();
    const load = vi.fn(async () => 'module');
    idle.importWhenIdle(load);
    idle.releaseIdleImports();
    await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_SETTLE_MS - 1);
    expect(requestIdleCallback).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: idle.IDLE_IMPORT_TIMEOUT_MS });
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(50);
    expect(load).toHaveBeenCalledOnce();
  });

  it('start anyway when the app never releases them', async () => {
    const idle = await freshIdleImport();
    const load = vi.fn(async () => 'module');
    idle.importWhenIdle(load);
    await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_HOLD_MAX_MS - 1);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1 + idle.IDLE_IMPORT_SETTLE_MS + idle.IDLE_IMPORT_FALLBACK_MS);
    expect(load).toHaveBeenCalledOnce();
  });

  it('try a failed download again when the browser is back online', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onlineListeners: (() => void)[] = [];
    vi.stubGlobal('addEventListener', (type: string, listener: () => void) => {
      if (type === 'online') onlineListeners.push(listener);
    });
    const idle = await freshIdleImport();
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce('module');
    const module = idle.importWhenIdle(load);
    idle.releaseIdleImports();
    await vi.advanceTimersByTimeAsync(idle.IDLE_IMPORT_SETTLE_MS + idle.IDLE_IMPORT_FALLBACK_MS);
    expect(load).toHaveBeenCalledOnce();
    expect(module.current()).toBeNull();
    expect(onlineListeners).toHaveLength(1);

    onlineListeners[0]!();
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
    expect(module.current()).toBe('module');
  });
});
