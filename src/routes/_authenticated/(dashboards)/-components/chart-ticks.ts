const DAY_S = 86_400;
/** Strides between day labels, in days: every day, then every other, then weekly, and so on. */
const DAY_STRIDES = [1, 2, 3, 7, 14, 28, 56, 91, 182, 364];

/**
 * The x ticks of a chart of days (Unix seconds at UTC midnight): whole days only, never two in one day, spaced so
 * that each label ("Nov 22") has at least `labelSpacePx`. uPlot's own time ticks may fall every few hours, which
 * printed as days read "Nov 22 Nov 22 Nov 23 …".
 */
export function dayTicks(min: number, max: number, plotWidthPx: number, labelSpacePx = 56): number[] {
  const first = Math.ceil(min / DAY_S) * DAY_S;
  if (first > max) return [];
  const days = Math.floor((max - first) / DAY_S) + 1;
  const fit = Math.max(1, Math.floor(plotWidthPx / labelSpacePx));
  const stride = DAY_STRIDES.find((step) => Math.ceil(days / step) <= fit) ?? Math.ceil(days / fit);
  const ticks: number[] = [];
  for (let tick = first; tick <= max; tick += stride * DAY_S) ticks.push(tick);
  return ticks;
}
