import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketRow } from '../../src/contract/refund-tickets';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const ticket: TicketRow = {
  ticket_id: 77,
  transaction_id: 4021,
  location_id: 3,
  location_name: 'Pike Place Market Garage',
  time_zone: 'America/Los_Angeles',
  license_plate: 'ABC1234',
  status: 'open',
  amount_requested_cents: 1200,
  reason: 'Charged twice',
  created_at: '2026-11-29T04:34:27.000Z',
  requester: 'desk@example.com',
  version: 1,
  updated_at: '2026-11-29T04:34:27.000Z',
};
const locations = [{ location_id: 3, name: 'Pike Place Market Garage', time_zone: 'America/Los_Angeles' }];

function openTickets(url: string) {
  const { api, calls } = sectionApi({ get: { '/refund-tickets': pageOf([ticket]), '/transactions/locations': locations } });
  return { ...renderConsole(url, { permissions: personaPermissions('finance'), api }), calls };
}

describe('the refund tickets list', () => {
  it('filters by days on the locations’ clocks and shows times there, never as UTC or ISO text', async () => {
    const { router, calls } = openTickets('/refund-portal?from=2026-11-01');
    // 04:34 UTC on the 29th is the evening of the 28th in Seattle.
    expect(await screen.findByText('Nov 28, 2026, 8:34 PM PST')).toBeInTheDocument();
    const from = screen.getByLabelText('Opened from');
    expect(from).toHaveValue('2026-11-01');
    expect(from).toHaveAccessibleDescription(/each ticket's location/);
    expect(screen.getByLabelText('Opened to')).toHaveAttribute('type', 'date');
    expect(document.body.textContent).not.toMatch(/\(UTC\)|\d{4}-\d{2}-\d{2}T\d{2}/);

    fireEvent.change(screen.getByLabelText('Opened to'), { target: { value: '2026-11-28' } });
    await waitFor(() => expect(router.state.location.search).toMatchObject({ from: '2026-11-01', to: '2026-11-28' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/refund-tickets').at(-1)?.payload).toMatchObject({ from: '2026-11-01', to: '2026-11-28' }));
  });
});
