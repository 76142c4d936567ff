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
  refunded_cents: 0,
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

function openTicket(post: Record<string, unknown>, shown: TicketDetail = ticket) {
  const { api, calls } = sectionApi({ get: { '/refund-tickets/77': shown, '/refund-tickets/77/history': [] }, post });
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

/** Issue 34's ticket: $12 asked on a $30.96 payment, approved, $10 refunded from it. */
const halfRefunded: TicketDetail = {
  ...ticket,
  status: 'approved',
  amount_requested_cents: 1200,
  refunded_cents: 1000,
  decision_reason: 'Receipt checks out',
  transaction: {
    ...ticket.transaction,
    amount_cents: 3096,
    refunded_cents: 1000,
    status: 'partially_refunded',
    refunds: [
      { refund_id: 5, amount_cents: 1000, reason: 'Agreed', created_at: '2026-11-22T18:04:00Z', created_by: 'agent@example.com' },
    ],
  },
};

describe('a ticket’s refund', () => {
  it('offers at most what the ticket still asks for, and stops more at the field before any dialog', async () => {
    const calls = openTicket({ '/transactions/4021/refunds': () => new Promise(() => undefined) }, halfRefunded);
    const form = await screen.findByRole('form', { name: 'Refund' });
    const amount = within(form).getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveValue('2.00');
    expect(form).toHaveTextContent('The ticket still asks for $2.00 of the $12.00 it asked for.');
    // The button says the amount as it is typed.
    expect(within(form).getByRole('button', { name: 'Refund $2.00…' })).toBeEnabled();

    await userEvent.clear(amount);
    await userEvent.type(amount, '2.01');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Rest of it');
    await userEvent.click(within(form).getByRole('button', { name: 'Refund $2.01…' }));
    expect(await within(form).findByText('The amount is more than the ticket still asks for: at most $2.00.')).toBeVisible();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posts(calls)).toHaveLength(0);

    await userEvent.clear(amount);
    await userEvent.type(amount, '1.5');
    await userEvent.click(within(form).getByRole('button', { name: 'Refund $1.50…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Refund this payment?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $1.50' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({ path: '/transactions/4021/refunds', payload: { amount_cents: 150, reason: 'Rest of it', ticket_id: 77 } });
  }, 60_000);

  it('offers nothing once the ticket is refunded, and says why', async () => {
    openTicket({}, { ...halfRefunded, status: 'refunded', refunded_cents: 1200 });
    const section = await screen.findByRole('region', { name: 'Refund' });
    expect(section).toHaveTextContent('This ticket is refunded in full ($12.00); it takes no more refunds.');
    expect(screen.queryByRole('form', { name: 'Refund' })).toBeNull();
    expect(within(section).queryByRole('textbox')).toBeNull();
  });

  it('places the server’s refusal at the amount, closes the dialog, and the button follows the corrected amount', async () => {
    const calls = openTicket(
      {
        '/transactions/4021/refunds': () => {
          throw new ApiError('Invalid request body: amount_cents: The amount is more than ticket 77 still asks for: $0.50 of the $12.00 it asked for.', {
            status: 400,
            data: { fieldErrors: { amount_cents: 'The amount is more than ticket 77 still asks for: $0.50 of the $12.00 it asked for.' } },
          });
        },
      },
      halfRefunded,
    );
    const form = await screen.findByRole('form', { name: 'Refund' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Rest of it');
    await userEvent.click(within(form).getByRole('button', { name: 'Refund $2.00…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Refund this payment?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $2.00' }));
    expect(await within(form).findByText('The amount is more than ticket 77 still asks for: $0.50 of the $12.00 it asked for.')).toBeVisible();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(form).not.toHaveTextContent('Invalid request body');
    const amount = within(form).getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(amount);
    await userEvent.type(amount, '0.5');
    expect(within(form).getByRole('button', { name: 'Refund $0.50…' })).toBeEnabled();
    expect(posts(calls)).toHaveLength(1);
  });
});
