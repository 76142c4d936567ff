import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { installMatchMedia } from '../dom/window-width';

beforeEach(() => {
  installMatchMedia(1280);
  // jsdom implements neither; the router restores scroll and Radix observes sizes.
  window.scrollTo = () => undefined;
  // jsdom has no pointer capture; Radix Toast captures the pointer during a swipe.
  Element.prototype.setPointerCapture ??= () => undefined;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.hasPointerCapture ??= () => false;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
