import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Citation } from '../../src/contract/citations';
import type { AuditEntry } from '../../src/contract/lists';
import { permissionsFor, personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

vi.setConfig({ testTimeout: 20_000 });

const ID = '0b7c3f0e-6a51-4b8e-9d2c-1f2e3a4b5c6d';
const PHOTO = 'a'.repeat(64);
const CITATION: Citation = {
  citation_id: ID,
  location_id: 1,
  location_name: 'Union Station Garage',
  time_zone: 'America/Chicago',
  license_plate: 'ABC123',
  issued_at: '2026-11-23T21:04:00.000Z',
  received_at: '2026-11-23T21:30:00.000Z',
  officer: { email: 'officer@example.com', name: 'Olivia Officer' },
  violation: 'no_payment',
  violation_label: 'No payment',
  fine_cents: 5000,
  notes: 'Blue sedan',
  verdict: { headline: 'NO RECORD', detail: 'No record matches “ABC123”.' },
  status: 'issued',
  void_reason: null,
  voided_at: null,
  photos: [{ sha256: PHOTO, content_type: 'image/jpeg', size_bytes: 1234 }],
  version: 1,
};
const CREATED: AuditEntry = { audit_id: 1, at: CITATION.received_at, actor: { email: 'officer@example.com', name: 'Olivia Officer' }, action: 'create', changes: [] };
const SUPERVISOR = permissionsFor({ e: { e: [1, 2] } }, 'supervisor@example.com');

beforeAll(() => {
  // jsdom has no object URLs; the photo's <img> only needs one to point at.
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
});

describe('the Citations list', () => {
  it('shows each citation in dollars on its location’s clock, filters on the server and links to the citation', async () => {
    const { api, calls } = sectionApi({ get: { '/citations': pageOf([CITATION]) } });
    renderConsole('/citations', { permissions: personaPermissions('officer'), api });
    const row = await screen.findByRole('row', { name: /ABC123/ });
    expect(row).toHaveTextContent('$50.00');
    expect(row).toHaveTextContent('No payment');
    // 21:04 UTC is 3:04 PM in Chicago in November.
    expect(row).toHaveTextContent('3:04 PM');
    expect(within(row).getByRole('link', { name: 'Citation for ABC123' })).toHaveAttribute('href', `/citations/${ID}`);
    expect(screen.getByRole('navigation', { name: 'Enforcement screens' })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getAllByRole('combobox', { name: 'Status' })[0]!, 'Void');
    await waitFor(() => expect(calls.filter((call) => call.path === '/citations').at(-1)?.payload).toMatchObject({ status: 'voided' }));
  });

  it('exports the rows of the filters as CSV', async () => {
    const { api, calls } = sectionApi({ get: { '/citations': pageOf([CITATION]) } });
    renderConsole('/citations?status=issued', { permissions: personaPermissions('officer'), api });
    await userEvent.click(await screen.findByRole('button', { name: /Export CSV/i }));
    await waitFor(() => expect(calls.find((call) => call.method === 'DOWNLOAD')).toMatchObject({ path: '/citations/export', payload: { status: 'issued' } }));
  });
});

describe('one citation', () => {
  it('shows what the officer wrote and saw, its photo and History, and no Void without edit', async () => {
    const { api, calls } = sectionApi({ get: { [`/citations/${ID}`]: CITATION, [`/citations/${ID}/history`]: [CREATED] } });
    renderConsole(`/citations/${ID}`, { permissions: personaPermissions('officer'), api });
    expect(await screen.findByRole('heading', { name: 'Citation ABC123' })).toBeInTheDocument();
    expect(screen.getByText('NO RECORD — No record matches “ABC123”.')).toBeInTheDocument();
    expect(screen.getByText('$50.00')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Photo 1 of ABC123' })).toHaveAttribute('src', 'blob:photo');
    expect(calls.find((call) => call.method === 'DOWNLOAD')?.path).toBe(`/citations/${ID}/photos/${PHOTO}`);
    expect(screen.getByText('Created')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Void' })).toBeNull();
  });

  it('voids with a reason, asked for before anything is sent', async () => {
    const voided = { ...CITATION, status: 'voided', void_reason: 'Paid at the kiosk', voided_at: '2026-11-24T15:00:00.000Z', version: 2 };
    const { api, calls } = sectionApi({
      get: { [`/citations/${ID}`]: CITATION, [`/citations/${ID}/history`]: [CREATED] },
      post: { [`/citations/${ID}/void`]: voided },
    });
    renderConsole(`/citations/${ID}`, { permissions: SUPERVISOR, api });
    await userEvent.click(await screen.findByRole('button', { name: 'Void' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Void citation' }));
    expect(await within(dialog).findAllByText('Enter the reason for voiding the citation.')).not.toHaveLength(0);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Paid at the kiosk');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Void citation' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toEqual([{ method: 'POST', path: `/citations/${ID}/void`, payload: { reason: 'Paid at the kiosk', version: 1 } }]));
  });

  it('says a citation outside the user’s locations was not found', async () => {
    const { ApiError } = await import('../../src/api/client');
    const missing = () => {
      throw new ApiError('not found', { status: 404 });
    };
    const { api } = sectionApi({ get: { [`/citations/${ID}`]: missing, [`/citations/${ID}/history`]: missing } });
    renderConsole(`/citations/${ID}`, { permissions: personaPermissions('officer'), api });
    expect(await screen.findByRole('heading', { name: 'Citation not found' })).toBeInTheDocument();
  });
});
