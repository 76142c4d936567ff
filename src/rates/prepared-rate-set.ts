import type { DayTable } from './day-table';
import {
  MINUTES_PER_DAY,
  MINUTES_PER_WEEK,
  bandSpan,
  wallClockMinute,
  type RateSet,
} from './rate-set';

/** Minutes per slot of `runAtSlot`. */
export const SLOT_MINUTES = 15;
const SLOTS_PER_DAY = MINUTES_PER_DAY / SLOT_MINUTES;

/**
 * What a quote reads, worked out once per rate set: the week as runs of one band, events as wall-clock minute ranges
 * sorted by start, and the lines' labels.
 */
export interface PreparedRateSet {
  /**
   * Runs of the week: the maximal stretches of one band (index in `rateSet.bands`, or −1 for none) within a day, in
   * weekday order; `dayFirstRun[7]` is the number of runs. The run holding a minute is found from the run at the start
   * of its 15-minute slot (`runOf`): a table of 672 entries rather than one of 10,080, so that a quote's reads stay
   * in the processor's cache.
   */
  runAtSlot: Int16Array;
  /** Per run: its first minute of the day, the minute after its last (1–1440), its band. */
  runFrom: Int16Array;
  runTo: Int16Array;
  runBand: Int16Array;
  dayFirstRun: Int32Array;
  /** Whether every band is one run (true of the sets `validate` accepts): the day tables rely on it. */
  dayTablesUsable: boolean;
  /** Prefix sums per weekday and phase, by increment length, built on first use (`src/rates/day-tables.ts`). */
  dayTables: (DayTable | undefined)[];
  /** Per band: 1 when flat. */
  bandFlat: Uint8Array;
  bandPrice: Float64Array;
  /** The lines' labels, built once: "Monday 08:00–18:00 (flat)", "Event: Game day". */
  bandLabel: string[];
  /** Wall-clock minutes (counted like UTC) of disjoint spans where an event is in force, sorted; the event's index. */
  spanStart: Float64Array;
  spanEnd: Float64Array;
  spanEvent: Int32Array;
  /** Events sorted by start; their index in `rateSet.events` in `eventSource`. */
  eventFlat: Uint8Array;
  eventPrice: Float64Array;
  eventSource: Int32Array;
  eventLabel: string[];
  /** Scratch per quote: increments (or visits, when flat) charged per band and per event. */
  bandCount: Float64Array;
  eventCount: Float64Array;
  eventCharged: Uint8Array;
  /** Scratch: flat bands already charged in this stay, keyed localDay * 4096 + band. */
  chargedFlat: Float64Array;
  flatCharged: number;
  /** Scratch: the current day's charges, undone from the lines when the day ends at its maximum. */
  journalUnit: Int32Array;
  journalQuantity: Float64Array;
  journalLength: number;
  /** Scratch: the lowest and highest band whose count may be non-zero (counts are cleared as the lines read them). */
  touchedLow: number;
  touchedHigh: number;
  /** Scratch: the numbers of the days that reached their maximum. */
  cappedDays: Int32Array;
  cappedLength: number;
  /** Scratch: a day's charge before one minute, per weekday (whole 24-hour windows in a row). */
  headCharge: Float64Array;
  /** Scratch: whether event counts may be non-zero (they are cleared as the lines read them). */
  eventsTouched: boolean;
  /** Scratch: stretches of the current day priced by the day tables (`segmentKey`), counted when the day closes. */
  pendingSegments: Float64Array;
  pendingLength: number;
  /** Scratch: the stretches of the days under their maximum and how many times each was priced, for the lines. */
  segmentKeys: Float64Array;
  segmentTimes: Float64Array;
  segmentLength: number;
}

/**
 * Where bands overlap (a set `validate` refuses), the one listed first wins; events with unreadable times are left out.
 */
export function prepareRateSet(rateSet: RateSet): PreparedRateSet {
  const bandCount = rateSet.bands.length;
  if (bandCount > 4095) throw new RangeError('A rate set has at most 4,095 bands.');
  const bandAt = new Int16Array(MINUTES_PER_WEEK).fill(-1);
  for (let band = bandCount - 1; band >= 0; band--) {
    const { day, startMinute, endMinute } = rateSet.bands[band]!;
    if (!Number.isInteger(day) || day < 0 || day > 6) continue;
    const from = Math.max(0, Math.floor(startMinute));
    const to = Math.min(MINUTES_PER_DAY, Math.ceil(endMinute));
    bandAt.fill(band, day * MINUTES_PER_DAY + from, day * MINUTES_PER_DAY + Math.max(from, to));
  }
  // Where the run of the band in force at each minute of the week ends (minute of the day, 1–1440).
  const runEnd = new Int16Array(MINUTES_PER_WEEK);
  const dayLength = MINUTES_PER_DAY;
  for (let day = 0; day < 7; day++) {
    const dayStart = day * dayLength;
    let end = dayLength;
    runEnd[dayStart + dayLength - 1] = end;
    for (let minute = dayLength - 2; minute >= 0; minute--) {
      if (bandAt[dayStart + minute] !== bandAt[dayStart + minute + 1]) end = minute + 1;
      runEnd[dayStart + minute] = end;
    }
  }
  const runAtSlot = new Int16Array(7 * SLOTS_PER_DAY);
  const runFrom: number[] = [];
  const runTo: number[] = [];
  const runBand: number[] = [];
  const dayFirstRun = new Int32Array(8);
  const runsOfBand = new Int32Array(bandCount);
  for (let day = 0; day < 7; day++) {
    dayFirstRun[day] = runBand.length;
    for (let minute = 0; minute < dayLength; ) {
      const band = bandAt[day * dayLength + minute] as number;
      const end = runEnd[day * dayLength + minute] as number;
      for (let slot = Math.ceil(minute / SLOT_MINUTES); slot * SLOT_MINUTES < end; slot++) runAtSlot[day * SLOTS_PER_DAY + slot] = runBand.length;
      runFrom.push(minute);
      runTo.push(end);
      runBand.push(band);
      if (band >= 0) runsOfBand[band] = (runsOfBand[band] as number) + 1;
      minute = end;
    }
  }
  dayFirstRun[7] = runBand.length;
  const events = rateSet.events
    .map((event, index) => ({ event, index, start: wallClockMinute(event.start), end: wallClockMinute(event.end) }))
    .filter(({ start, end }) => start < end)
    .sort((a, b) => a.start - b.start || a.index - b.index);
  // The event timeline: disjoint spans, each with the event in force (the earliest started, then the first listed).
  const edges = [...new Set(events.flatMap(({ start, end }) => [start, end]))].sort((a, b) => a - b);
  const spanStart: number[] = [];
  const spanEnd: number[] = [];
  const spanEvent: number[] = [];
  for (let index = 0; index + 1 < edges.length; index++) {
    const from = edges[index]!;
    const winner = events.findIndex(({ start, end }) => start <= from && from < end);
    if (winner < 0) continue;
    if (spanEvent.length > 0 && spanEvent[spanEvent.length - 1] === winner && spanEnd[spanEnd.length - 1] === from) {
      spanEnd[spanEnd.length - 1] = edges[index + 1]!;
    } else {
      spanStart.push(from);
      spanEnd.push(edges[index + 1]!);
      spanEvent.push(winner);
    }
  }
  return {
    runAtSlot,
    runFrom: Int16Array.from(runFrom),
    runTo: Int16Array.from(runTo),
    runBand: Int16Array.from(runBand),
    dayFirstRun,
    dayTablesUsable: runsOfBand.every((runs) => runs <= 1),
    dayTables: [],
    bandFlat: Uint8Array.from(rateSet.bands, (band) => (band.pricing === 'flat' ? 1 : 0)),
    bandPrice: Float64Array.from(rateSet.bands, (band) => band.priceCents),
    bandLabel: rateSet.bands.map((band) => `${bandSpan(band.day, band.startMinute, band.endMinute)}${band.pricing === 'flat' ? ' (flat)' : ''}`),
    spanStart: Float64Array.from(spanStart),
    spanEnd: Float64Array.from(spanEnd),
    spanEvent: Int32Array.from(spanEvent),
    eventFlat: Uint8Array.from(events, ({ event }) => (event.pricing === 'flat' ? 1 : 0)),
    eventPrice: Float64Array.from(events, ({ event }) => event.priceCents),
    eventSource: Int32Array.from(events, (event) => event.index),
    eventLabel: events.map(({ event }) => `Event: ${event.name}${event.pricing === 'flat' ? ' (flat)' : ''}`),
    bandCount: new Float64Array(bandCount),
    eventCount: new Float64Array(events.length),
    eventCharged: new Uint8Array(events.length),
    chargedFlat: new Float64Array(64),
    flatCharged: 0,
    journalLength: 0,
    journalUnit: new Int32Array(64),
    journalQuantity: new Float64Array(64),
    touchedLow: bandCount,
    touchedHigh: -1,
    eventsTouched: false,
    headCharge: new Float64Array(7),
    cappedDays: new Int32Array(16),
    cappedLength: 0,
    pendingSegments: new Float64Array(16),
    pendingLength: 0,
    segmentKeys: new Float64Array(32),
    segmentTimes: new Float64Array(32),
    segmentLength: 0,
  };
}

/** The run in force at minute `minute` (0–1439) of weekday `weekday`. */
export function runOf(tables: PreparedRateSet, weekday: number, minute: number): number {
  let run = tables.runAtSlot[weekday * SLOTS_PER_DAY + Math.floor(minute / SLOT_MINUTES)] as number;
  const runTo = tables.runTo;
  while ((runTo[run] as number) <= minute) run++;
  return run;
}
