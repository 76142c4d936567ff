import type { Auth } from 'firebase/auth';
import { IDLE_IMPORT_FALLBACK_MS, IDLE_IMPORT_TIMEOUT_MS, retryWhenOnline, whenBrowserIdle } from '../ui/idle-import';
import type * as FirebaseAuthModule from './firebase-auth';

/**
 * Firebase Auth (~29 KB gz) as a lazily loaded dependency: nothing in the entry chunk imports `firebase/*`, so neither
 * /login nor /list waits for it (docs/decisions/0006-firebase-off-the-critical-path.md). It loads once, either when the
 * browser is idle after the first page is shown (`loadFirebaseWhenIdle`) or at once when something needs it
 * (a sign-in, a password reset, an ID token, a sign-out), whichever comes first.
 */
export type FirebaseAuth = typeof FirebaseAuthModule;

/** The idle load starts at the latest this long after it was scheduled, however busy the page. */
export const IDLE_LOAD_TIMEOUT_MS = IDLE_IMPORT_TIMEOUT_MS;
/** Where the browser has no `requestIdleCallback` (Safari), the load waits this long instead. */
export const IDLE_LOAD_FALLBACK_MS = IDLE_IMPORT_FALLBACK_MS;
/**
 * On the login page the idle load waits this much longer: the form needs Firebase only once submitted (which loads it
 * at once), so it leaves the first seconds to the page, and is still there before most people have typed a password.
 */
export const SIGNED_OUT_PRELOAD_DELAY_MS = 2_000;

let loading: Promise<FirebaseAuth> | undefined;
let announceLoaded: (firebase: FirebaseAuth) => void = () => {};
const loaded = new Promise<FirebaseAuth>((resolve) => (announceLoaded = resolve));

/** Loads Firebase Auth now, unless it is loading or loaded already; a failed download is tried again next time. */
export function loadFirebase(): Promise<FirebaseAuth> {
  loading ??= import('./firebase-auth').then(
    (firebase) => {
      announceLoaded(firebase);
      return firebase;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Settles once Firebase Auth has loaded, without loading it: for whatever may wait for the background load. */
export function firebaseLoaded(): Promise<FirebaseAuth> {
  return loaded;
}

export const loadFirebaseAuth = async (): Promise<Auth> => (await loadFirebase()).auth;
export const firebaseAuthLoaded = async (): Promise<Auth> => (await loaded).auth;

/**
 * Loads Firebase Auth when the browser is next idle, `delayMs` from now at the earliest. Called once the first page is
 * on screen, so the download never competes with what the page needs to become usable. A failed download is tried
 * again when the browser comes back online (sign-in and the rest load it themselves when they need it).
 */
export function loadFirebaseWhenIdle(delayMs = 0): void {
  const whenIdle = () =>
    whenBrowserIdle(() => retryWhenOnline(loadFirebase, 'Firebase Auth could not be loaded'), IDLE_LOAD_TIMEOUT_MS, IDLE_LOAD_FALLBACK_MS);
  if (delayMs > 0) setTimeout(whenIdle, delayMs);
  else whenIdle();
}

/** The signed-in identity's ID token for the API client (refreshed by Firebase when near expiry); null when signed out. */
export async function currentIdToken(): Promise<string | null> {
  const auth = await loadFirebaseAuth();
  // Until Firebase has read back its persisted user (IndexedDB), `currentUser` is null even for a signed-in user.
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}
