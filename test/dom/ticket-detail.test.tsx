import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { TicketDetail } from '../../src/contract/refund-tickets';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { sectionApi } from './section-api';

vi.setConfig({ testTimeout: 20_000 });

const ticket: TicketDetail = {
  ticket_id: 77,
  transaction_id: 4021,
  location_id: 3,
  location_name: 'Pike Place Market Garage',
  time_zone: 'America/Los_Angeles',
  license_plate: 'ABC1234',
  status: 'open',
  amount_requested_cents: 1000,
  reason: 'Charged twice',
  created_at: '2026-11-21T18:04:00Z',
  requester: 'support@example.com',
  version: 3,
  updated_at: '2026-11-21T18:04:00Z',
  decision_reason: null,
  notes: [],
  transaction: {
    transaction_id: 4021,
    location_id: 3,
    location_name: 'Pike Place Market Garage',
    time_zone: 'America/Los_Angeles',
    license_plate: 'ABC1234',
    payment_time: '2026-11-20T18:04:00Z',
    expiry_date_time: '2026-11-20T20:04:00Z',
    amount_cents: 1250,
    fee_cents: 66,
    refunded_cents: 0,
    payment_method: 'card',
    status: 'paid',
    phone_last4: '0142',
    processor_reference: 'ch_4021',
    settled_date: '2026-11-23',
    refunds: [],
  },
};

function openTicket(post: Record<string, unknown>) {
  const { api, calls } = sectionApi({ get: { '/refund-tickets/77': ticket, '/refund-tickets/77/history': [] }, post });
  renderConsole('/refund-portal/ticket-info/77', { permissions: personaPermissions('admin'), api });
  return calls;
}

const posts = (calls: ReturnType<typeof openTicket>) => calls.filter((call) => call.method === 'POST');

describe('a refund ticket’s forms that act at once', () => {
  it('asks for the decision’s reason before sending, then sends the choice with the ticket’s version', async () => {
    const calls = openTicket({ '/refund-tickets/77/decision': () => new Promise(() => undefined) });
    const form = await screen.findByRole('form', { name: 'Decision' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save decision' }));
    expect(await within(form).findByText('Give the reason for the decision.')).toBeVisible();
    expect(posts(calls)).toHaveLength(0);

    await userEvent.click(within(form).getByRole('radio', { name: 'Reject' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Reason for the decision' }), '  Paid once only ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save decision' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({ path: '/refund-tickets/77/decision', payload: { decision: 'reject', reason: 'Paid once only', version: 3 } });
    // While it runs the one button waits, so a second press sends nothing.
    expect(within(form).getByRole('button', { name: 'Saving…' })).toBeDisabled();
  });

  it('says a refused note in the server’s words and keeps what was typed', async () => {
    const calls = openTicket({
      '/refund-tickets/77/notes': () => {
        throw new ApiError('This ticket was changed meanwhile.', { status: 409 });
      },
    });
    const form = await screen.findByRole('form', { name: 'Add a note' });
    const note = within(form).getByRole('textbox', { name: 'New note' });
    await userEvent.type(note, 'Called the parker');
    await userEvent.click(within(form).getByRole('button', { name: 'Add note' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This ticket was changed meanwhile.');
    expect(posts(calls)[0]).toMatchObject({ path: '/refund-tickets/77/notes', payload: { body: 'Called the parker' } });
    expect(note).toHaveValue('Called the parker');
    expect(within(form).getByRole('button', { name: 'Add note' })).toBeEnabled();
  });

  it('shows the record beside its History', async () => {
    openTicket({});
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket 77' })).toBeVisible();
    expect(screen.getByText('Amount asked').nextElementSibling).toHaveTextContent('$10.00');
    expect(screen.getByRole('region', { name: 'History' })).toHaveTextContent('No changes recorded yet.');
  });
});
