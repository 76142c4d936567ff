/**
 * Registers the service worker that keeps the app shell for offline use (vite.config.ts generates it in production
 * builds only). It waits for the page's load event, so it never competes with the page's own downloads, and it never
 * reloads the page: a new version waits until every tab of the console has closed
 * (docs/decisions/0016-service-worker-precaches-the-app-shell.md).
 */
export function registerServiceWorker(scriptUrl: string): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(scriptUrl).catch((error: unknown) => {
      console.warn('The service worker could not be registered; the console will not work offline', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
