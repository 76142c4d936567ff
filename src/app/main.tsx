import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../ui/styles.css';
import { App } from './app';
import { startAuth } from './auth-actor';
import { connectEnforcementEngine } from './enforcement-engine';
import { isProductionHost } from './config';
import { loadFirebaseWhenIdle, SIGNED_OUT_PRELOAD_DELAY_MS } from './firebase';
import { startProductionLogging } from './production-logging';
import { createAppRouter } from './router';
import { registerServiceWorker } from './service-worker';
import { takeDeliberateLogout } from '../routes/-shared/safe-redirect';
import { releaseIdleImports } from '../ui/idle-import';

void startProductionLogging();

// Wiring only: the auth actor, the API client bound to it, and the router whose guards read both.
const { actor, api, gate } = startAuth(redirectToLogin);
const router = createAppRouter({ auth: gate, api, isProductionHost: isProductionHost() });
const enforcement = connectEnforcementEngine(actor);
// Each navigation checks the permissions with the server (issue 13): a changed role reaches the sidebar and guards.
router.subscribe('onBeforeNavigate', () => actor.send({ type: 'auth.refreshPermissions' }));

/**
 * Spec §4: without a user the browser goes to /login; it remembers the page so that signing in returns there, unless
 * the user logged out deliberately: the next person to sign in lands on their own home, never the previous user's page.
 */
function redirectToLogin(): void {
  const { pathname, search, hash } = router.history.location;
  if (takeDeliberateLogout()) {
    void router.navigate({ to: '/login', replace: true });
    return;
  }
  if (pathname === '/login') return;
  void router.navigate({ to: '/login', search: { redirect: `${pathname}${search}${hash}` }, replace: true });
}

// Once the first page is on screen, what no page needs to become usable loads at idle time: Radix's toasts and
// tooltips, and Firebase Auth (docs/decisions/0006-firebase-off-the-critical-path.md,
// docs/decisions/0013-idle-time-imports.md; a sign-in or an API call loads it sooner). A session resumed from lpa waits
// for Firebase to be confirmed, so at once; the login form needs it only when submitted, which loads it.
const stopWaitingForFirstPage = router.subscribe('onRendered', () => {
  stopWaitingForFirstPage();
  releaseIdleImports();
  loadFirebaseWhenIdle(actor.getSnapshot().hasTag('authenticated') ? 0 : SIGNED_OUT_PRELOAD_DELAY_MS);
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App actor={actor} router={router} enforcement={enforcement} />
  </StrictMode>,
);

// Offline use: the app shell's service worker, built for production (and e2e) only, registered after the load event.
if (import.meta.env.PROD) registerServiceWorker(`${import.meta.env.BASE_URL}sw.js`);
