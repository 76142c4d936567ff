let sink = 0;

/**
 * A fixed amount of main-thread work, timed (ms): its time under CDP throttling over its time at 1× is the slowdown
 * actually applied (on a loaded machine the throttle can lapse).
 */
export function spin(): number {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 3_000_000; i++) x = (x + i * 7) % 1_000_003;
  sink ^= x;
  return performance.now() - started + (sink === 0.5 ? 1 : 0);
}
