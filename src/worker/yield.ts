/**
 * A macrotask boundary: messages already queued for the worker (a search from the page) run before what follows.
 * Awaiting a promise does not do that (a microtask continues the same task), so long work (a page's validation,
 * a purge) calls this between its slices.
 *
 * A MessageChannel message rather than setTimeout(0): timers set from a timer's task nest, and from the fifth level
 * on wait at least 4 ms (HTML timers), which a page's validation slices reached; nor scheduler.yield(), whose
 * continuations are run ahead of other queued tasks, the opposite of what is wanted here.
 */
let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];

export function yieldToMessages(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  if (channel === null) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
    // Node (tests): the port must not keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel!.port2.postMessage(null);
  });
}

/**
 * Long synchronous work written as a generator that yields at points where it may pause (every few thousand items).
 * `finishNow` runs it in one piece; `runInSlices` runs it in slices of about `sliceMs`, calling `pause` between them
 * (yieldToMessages in the worker, so that a search asked meanwhile answers within a slice).
 */
export type Steps<T> = Generator<void, T, void>;

export function finishNow<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

export async function runInSlices<T>(steps: Steps<T>, pause: () => Promise<void>, sliceMs: number): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await pause();
      sliceStart = performance.now();
    }
  }
}
