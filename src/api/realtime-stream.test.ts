import { describe, expect, it, vi } from 'vitest';
import type { RealtimeSummary } from '../contract/dashboards';
import type { ApiClient } from './client';
import { followRealtime, serverSentEvents, type StreamStatus } from './realtime-stream';

const encoder = new TextEncoder();
/** A body that hands over the chunks as given (events may be split anywhere), then ends or fails. */
function body(chunks: string[], end: 'close' | 'fail' = 'close') {
  const queue = [...chunks];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (end === 'close') controller.close();
      else controller.error(new TypeError('network error'));
    },
  });
}

const summary = (payments: number, changeId: number): RealtimeSummary => ({
  as_of: '2026-03-02T15:00:00.000Z',
  change_id: changeId,
  choices: [],
  locations: [
    { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago', local_day: '2026-03-02', capacity: 10, payments, gross_cents: payments * 100, refunded_cents: 0, active_sessions: 0 },
  ],
  hours: [],
  latest: [],
});
const event = (data: RealtimeSummary) => `event: summary\nid: ${data.change_id}\ndata: ${JSON.stringify(data)}\n\n`;

describe('serverSentEvents', () => {
  it('reads events split across chunks, skipping comments and keep-alives', async () => {
    const text = `: keep-alive\n\nevent: summary\nid: 7\ndata: {"a":\ndata: 1}\n\n`;
    const events = [];
    for await (const message of serverSentEvents(body([text.slice(0, 9), text.slice(9, 30), text.slice(30)]))) events.push(message);
    expect(events).toEqual([{ event: 'summary', id: '7', data: '{"a":\n1}' }]);
  });
});

describe('followRealtime', () => {
  it('shows each whole summary and, after a dropped connection, replaces it with the next one: nothing counted twice', async () => {
    const streams = [
      () => body([event(summary(3, 10)), event(summary(4, 11))], 'fail'),
      () => body([event(summary(5, 12))]),
    ];
    let opened = 0;
    const client = {
      stream: vi.fn(async () => {
        const next = streams[opened++];
        if (!next) return new Promise<Response>(() => undefined); // stays open
        return new Response(next(), { headers: { 'Content-Type': 'text/event-stream' } });
      }),
    } as unknown as ApiClient;
    vi.useFakeTimers();
    const shown: number[] = [];
    const statuses: StreamStatus[] = [];
    const stop = followRealtime(client, {}, {
      onSummary: (data) => shown.push(data.locations[0]!.payments),
      onStatus: (status) => statuses.push(status),
    });
    await vi.advanceTimersByTimeAsync(5000);
    stop();
    vi.useRealTimers();
    expect(shown).toEqual([3, 4, 5]);
    expect(statuses).toEqual(['connecting', 'live', 'live', 'reconnecting', 'reconnecting', 'live']);
  });

  it('stops, saying so, when the server refuses the stream', async () => {
    const client = { stream: vi.fn(async () => Promise.reject(Object.assign(new Error('No permission'), { status: 403 }))) } as unknown as ApiClient;
    const statuses: StreamStatus[] = [];
    followRealtime(client, {}, { onSummary: () => undefined, onStatus: (status) => statuses.push(status) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(statuses).toEqual(['connecting', 'stopped']);
    expect(client.stream).toHaveBeenCalledTimes(1);
  });
});
