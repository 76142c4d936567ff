import { ratesBench, type RatesBench } from './engines';

/** The page half of `npm run bench:rates`: the same bundled module as in Node, on the page's main thread. */
declare global {
  interface Window {
    ratesBench: RatesBench;
  }
}

window.ratesBench = ratesBench;
