import type { InspectionEvent } from 'xstate';

type Inspect = (event: InspectionEvent) => void;

/**
 * Stately Inspector for development builds, opened only when a developer asks for it: `VITE_XSTATE_INSPECT=true` in
 * the environment of `npm run dev`, or `?inspect` in the URL the page is loaded with. (Opened by default, its popup
 * sent the console's tab to the background at every sign-in, where Chromium throttles it to about a frame a second.)
 * It opens once the first actor reports, buffering what comes before the package has loaded. In production builds
 * `import.meta.env.DEV` is false, so this, and the dynamic import with it, is dropped from the bundle.
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
  import.meta.env.DEV && inspectorRequested() ? createDevInspect() : undefined;

function inspectorRequested(): boolean {
  if (import.meta.env.VITE_XSTATE_INSPECT === 'true') return true;
  return typeof location !== 'undefined' && new URLSearchParams(location.search).has('inspect');
}
