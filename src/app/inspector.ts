import type { InspectionEvent } from 'xstate';

type Inspect = (event: InspectionEvent) => void;

/**
 * Stately Inspector for development builds: opens once the first actor reports, buffering what comes before the
 * package has loaded. In production builds `import.meta.env.DEV` is false, so this, and the dynamic import with it,
 * is dropped from the bundle. Set VITE_XSTATE_INSPECT=false to keep the inspector window closed in development.
 */
function createDevInspect(): Inspect {
  let forward: ((event: InspectionEvent) => void) | undefined;
  let pending: InspectionEvent[] | undefined;
  return (event) => {
    if (forward) return forward(event);
    if (pending) return void pending.push(event);
    pending = [event];
    import('@statelyai/inspect').then(
      ({ createBrowserInspector }) => {
        const inspector = createBrowserInspector();
        forward = (next) => inspector.inspect.next?.(next);
        for (const buffered of pending ?? []) forward(buffered);
        pending = undefined;
      },
      (error: unknown) => {
        forward = () => {};
        pending = undefined;
        console.warn('Stately Inspector could not be loaded', error);
      },
    );
  };
}

/** The `inspect` option for `createActor`; undefined outside development. */
export const inspect: Inspect | undefined =
  import.meta.env.DEV && import.meta.env.VITE_XSTATE_INSPECT !== 'false' ? createDevInspect() : undefined;
