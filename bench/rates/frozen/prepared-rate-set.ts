/*
 * FROZEN: src/rates/prepared-rate-set.ts as of commit 0667ea5, the parent of 6c7944b ("per-weekday prefix sums"), copied verbatim
 * (`git show 6c7944b^:src/rates/prepared-rate-set.ts`). With the three other files of this folder it is the price engine before
 * the day tables: the baseline `npm run bench:rates` divides today's engine by (issue 35, docs/benchmarks.md).
 * It must NEVER change, not even to follow a lint rule or a type: a changed baseline makes every ratio
 * measured against it incomparable with the ones before. (jscpd ignores this folder: the copy is the point.)
 */
import {
  MINUTES_PER_DAY,
  MINUTES_PER_WEEK,
  bandSpan,
  wallClockMinute,
  type RateSet,
} from './rate-set';

/**
 * What a quote reads, worked out once per rate set: the band in force at each minute of the week and where its run
 * ends, events as wall-clock minute ranges sorted by start, and the lines' labels.
 */
export interface PreparedRateSet {
  /** Band index (in `rateSet.bands`) in force at each local minute of the week (Monday 00:00 = 0), −1 for none. */
  bandAt: Int16Array;
  /** Minute of the day (1–1440) where the run of the band in force at that minute of the week ends. */
  runEnd: Int16Array;
  /** Per band: 1 when flat. */
  bandFlat: Uint8Array;
  bandPrice: Float64Array;
  bandLabel: string[];
  /** Wall-clock minutes (counted like UTC) of disjoint spans where an event is in force, sorted; the event's index. */
  spanStart: Float64Array;
  spanEnd: Float64Array;
  spanEvent: Int32Array;
  /** Events sorted by start; their index in `rateSet.events` in `eventSource`. */
  eventFlat: Uint8Array;
  eventPrice: Float64Array;
  eventSource: Int32Array;
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
    bandAt,
    runEnd,
    bandFlat: Uint8Array.from(rateSet.bands, (band) => (band.pricing === 'flat' ? 1 : 0)),
    bandPrice: Float64Array.from(rateSet.bands, (band) => band.priceCents),
    bandLabel: rateSet.bands.map((band) => bandSpan(band.day, band.startMinute, band.endMinute)),
    spanStart: Float64Array.from(spanStart),
    spanEnd: Float64Array.from(spanEnd),
    spanEvent: Int32Array.from(spanEvent),
    eventFlat: Uint8Array.from(events, ({ event }) => (event.pricing === 'flat' ? 1 : 0)),
    eventPrice: Float64Array.from(events, ({ event }) => event.priceCents),
    eventSource: Int32Array.from(events, (event) => event.index),
    bandCount: new Float64Array(bandCount),
    eventCount: new Float64Array(events.length),
    eventCharged: new Uint8Array(events.length),
    chargedFlat: new Float64Array(64),
    flatCharged: 0,
    journalLength: 0,
    journalUnit: new Int32Array(64),
    journalQuantity: new Float64Array(64),
  };
}
