import { createRoot } from 'react-dom/client';
import { createApiClient } from '../../src/api/client';
import { RealtimeDashboard } from '../../src/routes/_authenticated/(dashboards)/-components/realtime-dashboard';

/**
 * The console's real-time dashboard component (the same followRealtime stream reader and React screen as `/`),
 * against the API of `npm run bench:dashboards`. Records when each new count of today's payments is on screen: after
 * the frame that shows it (requestAnimationFrame, then a task, runs after that frame's paint).
 */
const params = new URLSearchParams(location.search);
const api = createApiClient({
  apiBase: params.get('api') ?? '',
  getIdToken: async () => params.get('idToken'),
  getSessionToken: () => params.get('session'),
  onSessionError: (code) => console.error(`session error ${code}`),
});

/** [when painted (epoch ms), today's payments shown]: one entry per change of the figure. */
const painted: [number, number][] = [];
declare global {
  interface Window {
    paintedCounts: () => [number, number][];
    frameMs: () => Promise<number>;
  }
}
window.paintedCounts = () => painted;

/** One frame of this page, measured: the median gap between 31 animation frames (the live paint's baseline adds it). */
window.frameMs = () =>
  new Promise((resolve) => {
    const times: number[] = [];
    const tick = (time: number) => {
      times.push(time);
      if (times.length < 31) return void requestAnimationFrame(tick);
      const gaps = times.slice(1).map((at, index) => at - times[index]!).sort((a, b) => a - b);
      resolve(gaps[gaps.length >> 1]!);
    };
    requestAnimationFrame(tick);
  });

let shown = -1;
new MutationObserver(() => {
  const text = document.querySelector('[data-figure="payments"]')?.textContent;
  if (!text) return;
  const count = Number(text.replace(/,/g, ''));
  if (count === shown) return;
  shown = count;
  requestAnimationFrame(() => setTimeout(() => painted.push([Date.now(), count]), 0));
}).observe(document.body, { childList: true, subtree: true, characterData: true });

createRoot(document.getElementById('root')!).render(
  <RealtimeDashboard
    api={api}
    query={params.get('locationId') ? { locationId: params.get('locationId')! } : {}}
    initial={null}
    loadError={null}
    onQuery={() => undefined}
    onRetry={() => undefined}
  />,
);
