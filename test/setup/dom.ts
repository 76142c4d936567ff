import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { idleImportsSettled, releaseIdleImports } from '../../src/ui/idle-import';
import { installMatchMedia } from '../dom/window-width';

// The toast region and Radix Tooltip arrive at idle time after the app's first page (src/ui/idle-import.ts). There is
// no such page here: they load before each file's tests, which test them loaded (toast-before-region.test.tsx and
// tooltip.test.tsx test the time before).
beforeAll(async () => {
  releaseIdleImports();
  await idleImportsSettled();
});

beforeEach(() => {
  installMatchMedia(1280);
  // jsdom implements neither; the router restores scroll and Radix observes sizes.
  window.scrollTo = () => undefined;
  // jsdom has no pointer capture; Radix Toast captures the pointer during a swipe.
  Element.prototype.setPointerCapture ??= () => undefined;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.hasPointerCapture ??= () => false;
  // jsdom's <dialog> has no modal methods (the Scan view opens one); the open attribute is what tests can see.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
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
