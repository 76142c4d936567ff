import uPlot from 'uplot';
// A stylesheet file of the chart's chunk, loaded with it as a <link>: nothing injected, so the production CSP holds.
import 'uplot/dist/uPlot.min.css';
import { dayTicks } from './chart-ticks';

/**
 * The dashboards' charts (uPlot: canvas, 23 KB, CSP-clean; docs/decisions/0071-charts-with-uplot.md). Loaded only after
 * the figures are on screen (dashboard-chart.tsx imports this module lazily). Canvas has no accessible content: every
 * chart sits beside a table of the same numbers.
 */
export interface ChartSeries {
  label: string;
  /** CSS colour of the line or bar. */
  colour: string;
  values: (number | null)[];
  /** Bars (drawn from zero) instead of a line. */
  bars?: boolean;
}

export interface ChartSpec {
  /** The x positions: hours 0–23, or days as Unix seconds (UTC midnight). */
  x: number[];
  xKind: 'hour' | 'day';
  series: ChartSeries[];
  /** Formats a y value for the axis (money in cents → dollars). */
  formatY: (value: number) => string;
}

const HEIGHT = 240;

function options(spec: ChartSpec, width: number): uPlot.Options {
  const bars = uPlot.paths.bars?.({ size: [0.7, 40] });
  const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
  return {
    width,
    height: HEIGHT,
    // Calendar days are UTC midnights here: shown as the day they name, whatever the browser's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: spec.xKind === 'day' } },
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    axes: [
      {
        values: (_chart, ticks) =>
          ticks.map((tick) => (spec.xKind === 'hour' ? `${tick}:00` : day.format(new Date(tick * 1000)))),
        space: 50,
        // Days: one tick per whole day at most, so no day's label appears twice (chart-ticks.ts).
        ...(spec.xKind === 'day' && {
          splits: (chart: uPlot, _axis: number, min: number, max: number) => dayTicks(min, max, chart.bbox.width / uPlot.pxRatio),
        }),
      },
      { values: (_chart, ticks) => ticks.map(spec.formatY), size: 70 },
    ],
    series: [
      {},
      ...spec.series.map((series) => ({
        label: series.label,
        stroke: series.colour,
        fill: series.bars ? series.colour : undefined,
        width: series.bars ? 0 : 2,
        paths: series.bars ? bars : undefined,
        points: { show: false },
        value: (_chart: uPlot, value: number | null) => (value === null ? '–' : spec.formatY(value)),
      })),
    ],
  };
}

const dataOf = (spec: ChartSpec): uPlot.AlignedData => [spec.x, ...spec.series.map((series) => series.values)];

/** Draws into `target`, following its width; returns update and dispose. */
export function drawChart(target: HTMLElement, initial: ChartSpec) {
  let spec = initial;
  const width = () => Math.max(240, Math.floor(target.clientWidth));
  let chart = new uPlot(options(spec, width()), dataOf(spec), target);
  const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: HEIGHT }));
  resize.observe(target);
  return {
    update(next: ChartSpec) {
      if (next.series.length !== spec.series.length || next.xKind !== spec.xKind) {
        chart.destroy();
        chart = new uPlot(options(next, width()), dataOf(next), target);
      } else {
        chart.setData(dataOf(next));
      }
      spec = next;
    },
    dispose() {
      resize.disconnect();
      chart.destroy();
    },
  };
}
