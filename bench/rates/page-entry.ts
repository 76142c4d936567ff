import { buildCases, runQuotes } from './workload';

/** The page half of `npm run bench:rates`: the same mix and loop as in Node, run on the page's main thread. */
declare global {
  interface Window {
    runRatesBench: (count: number, seconds: number, repeats: number) => ReturnType<typeof runQuotes> & { isolated: boolean };
  }
}

window.runRatesBench = (count, seconds, repeats) => ({
  ...runQuotes(buildCases(count), seconds, repeats, () => performance.now()),
  isolated: window.crossOriginIsolated,
});
