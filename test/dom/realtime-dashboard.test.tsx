import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/client';
import type { RealtimeSummary } from '../../src/contract/dashboards';
import { RealtimeDashboard } from '../../src/routes/_authenticated/(dashboards)/-components/realtime-dashboard';

const summary = (payments: number, grossCents: number, latestId: number): RealtimeSummary => ({
  as_of: '2026-03-02T15:00:00.000Z',
  change_id: latestId,
  choices: [{ location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' }],
  locations: [
    { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago', local_day: '2026-03-02', capacity: 40, payments, gross_cents: grossCents, refunded_cents: 0, active_sessions: 10 },
  ],
  hours: Array.from({ length: 24 }, (_, hour) => ({ hour, payments: hour === 8 ? payments : 0, gross_cents: hour === 8 ? grossCents : 0, last_week_payments: 0, last_week_gross_cents: 0 })),
  latest: [{ transaction_id: latestId, location_id: 1, location_name: 'Union Station Garage', time_zone: 'America/Chicago', payment_time: '2026-03-02T14:59:00.000Z', amount_cents: 1250, payment_method: 'card' }],
});

/** A client whose stream sends the given summaries as Server-Sent Events, then stays open. */
function streamingClient(summaries: RealtimeSummary[]) {
  const encoder = new TextEncoder();
  const queue = summaries.map((data) => `event: summary\nid: ${data.change_id}\ndata: ${JSON.stringify(data)}\n\n`);
  return {
    stream: vi.fn(async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull: (controller) => {
            const next = queue.shift();
            if (next) controller.enqueue(encoder.encode(next));
            else return new Promise(() => undefined);
          },
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      ),
    ),
  } as unknown as ApiClient;
}

describe('the real-time dashboard', () => {
  it('shows the loaded figures, then the stream’s, and says it is live', async () => {
    render(
      <RealtimeDashboard
        api={streamingClient([summary(3, 3750, 901)])}
        query={{}}
        initial={summary(2, 2500, 900)}
        loadError={null}
        onQuery={() => undefined}
        onRetry={() => undefined}
      />,
    );
    expect(await screen.findByRole('status')).toHaveTextContent(/Live/);
    const figure = (name: string) => document.querySelector(`[data-figure="${name}"]`)?.textContent;
    // The stream's summary replaced the loaded one (3 payments, not 2).
    expect(figure('payments')).toBe('3');
    expect(figure('revenue')).toBe('$37.50');
    expect(figure('average')).toBe('$12.50');
    expect(figure('occupancy')).toBe('25 %'); // 10 active of 40 spaces
    expect(screen.getByTestId('latest-payments').querySelector('[data-transaction-id="901"]')).not.toBeNull();
    expect(within(screen.getByTestId('realtime-locations')).getByRole('rowheader', { name: 'Union Station Garage' })).toBeInTheDocument();
  });

  it('says why when the figures could not be loaded, with Retry', async () => {
    const onRetry = vi.fn();
    render(
      <RealtimeDashboard api={streamingClient([])} query={{}} initial={null} loadError="Network error" onQuery={() => undefined} onRetry={onRetry} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Network error');
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(onRetry).toHaveBeenCalled();
  });
});
