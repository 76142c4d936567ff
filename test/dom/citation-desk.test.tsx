import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient } from '../../src/api/client';
import { OutboxDatabase } from '../../src/api/citation-outbox/outbox-db';
import { saveCitation } from '../../src/api/citation-outbox/outbox';
import { CitationDesk, type CitationDraft } from '../../src/routes/_authenticated/(enforcement)/-components/citation-desk';

vi.setConfig({ testTimeout: 20_000 });

const UNION_STATION = { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' };
const NAVY_PIER = { location_id: 2, name: 'Navy Pier East Lot', time_zone: 'America/Chicago' };
const NO_RECORD: CitationDraft = { plate: 'ABC123', headline: 'NO RECORD', detail: 'No record matches “ABC123”.', needsReason: false, locationId: 2, at: 1 };

/** An API that is offline until `online()`; what it was sent is kept. */
function network() {
  let up = false;
  const posts: { path: string; body: unknown }[] = [];
  const api = {
    post: async (path: string, body: unknown) => {
      if (!up) throw new ApiError('Network error: could not reach the server');
      posts.push({ path, body });
      return body;
    },
  } as unknown as ApiClient;
  return { api, posts, online: () => (up = true) };
}

let outbox: OutboxDatabase;
beforeEach(() => {
  // A fresh IndexedDB for each test.
  outbox = new OutboxDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
});

function renderDesk(draft: CitationDraft | null, api: ApiClient) {
  const onWaiting = vi.fn();
  const onDraftClosed = vi.fn();
  const view = render(
    <CitationDesk api={api} officer="officer@example.com" locations={[UNION_STATION, NAVY_PIER]} draft={draft} onDraftClosed={onDraftClosed} onWaiting={onWaiting} outbox={outbox} />,
  );
  return { ...view, onWaiting, onDraftClosed };
}

describe('writing a citation on /list', () => {
  it('prefills the form from the verdict and keeps the citation on the device before any network', async () => {
    const { api, posts } = network();
    const { onWaiting, onDraftClosed } = renderDesk(NO_RECORD, api);
    const form = await screen.findByRole('region', { name: 'Write citation' });
    expect(within(form).getByRole('textbox', { name: 'License plate' })).toHaveValue('ABC123');
    expect(within(form).getByRole('textbox', { name: 'License plate' })).toHaveFocus();
    expect(within(form).getByRole('combobox', { name: 'Location' })).toHaveDisplayValue('Navy Pier East Lot');
    expect(within(form).getByRole('combobox', { name: 'Violation' })).toHaveDisplayValue('No payment ($50.00)');
    expect(within(form).getByRole('textbox', { name: 'Fine ($)' })).toHaveValue('50.00');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Notes' }), 'Blue sedan');
    await userEvent.click(within(form).getByRole('button', { name: 'Save citation' }));
    await waitFor(() => expect(onDraftClosed).toHaveBeenCalled());
    await waitFor(() => expect(onWaiting).toHaveBeenLastCalledWith(1));
    expect(posts).toEqual([]);
    const kept = await outbox.citations.toArray();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      officer: 'officer@example.com',
      input: { license_plate: 'ABC123', location_id: 2, violation: 'no_payment', fine_cents: 5000, notes: 'Blue sedan', verdict: { headline: 'NO RECORD' } },
    });
    // Offline: it waits (its first attempt may be under way as the test looks).
    expect(['saved', 'uploading']).toContain(kept[0]!.state);
    await userEvent.click(screen.getByRole('button', { name: 'My citations today (1)' }));
    expect(screen.getByRole('listitem')).toHaveTextContent(/ABC123 · No payment · \$50\.00 · (Saved here|Uploading)/);
  });

  it('uploads once the network is back, and says so', async () => {
    const net = network();
    const { onWaiting } = renderDesk(NO_RECORD, net.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Save citation' }));
    await waitFor(() => expect(onWaiting).toHaveBeenLastCalledWith(1));
    net.online();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(onWaiting).toHaveBeenLastCalledWith(0));
    expect(net.posts.map((post) => post.path)).toEqual(['/citations']);
    await userEvent.click(screen.getByRole('button', { name: 'My citations today (1)' }));
    expect(screen.getByRole('listitem')).toHaveTextContent('Uploaded');
  });

  it('asks for a reason when the verdict lets the car stay, and for a fine in dollars, keeping nothing until then', async () => {
    const { api } = network();
    renderDesk({ ...NO_RECORD, headline: 'PAID', needsReason: true }, api);
    const form = await screen.findByRole('region', { name: 'Write citation' });
    const fine = within(form).getByRole('textbox', { name: 'Fine ($)' });
    await userEvent.clear(fine);
    await userEvent.type(fine, '-5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save citation' }));
    expect(await within(form).findByText('The fine cannot be negative.')).toBeInTheDocument();
    expect(within(form).getByText('The verdict was PAID: say in the notes why you write a citation.')).toBeInTheDocument();
    expect(fine).toHaveAttribute('aria-invalid', 'true');
    expect(await outbox.citations.count()).toBe(0);
  });
});

describe('the violations the form offers', () => {
  const LISTS = {
    locations: [
      { location_id: 1, violations: [{ code: 'no_payment', label: 'No payment', fine_cents: 6000 }, { code: 'blocking_a_driveway', label: 'Blocking a driveway', fine_cents: 4000 }] },
      { location_id: 2, violations: [{ code: 'expired', label: 'Payment expired', fine_cents: 3000 }] },
    ],
  };
  const optionsOf = (form: HTMLElement) => within(within(form).getByRole('combobox', { name: 'Violation' })).getAllByRole('option').map((option) => option.textContent);

  it('offers each location’s own list with its fines, downloaded while online and kept for offline', async () => {
    const net = network();
    const online = { ...net.api, get: vi.fn(async () => LISTS) } as unknown as ApiClient;
    const first = renderDesk(NO_RECORD, online);
    const form = await screen.findByRole('region', { name: 'Write citation' });
    // Navy Pier's list has no "No payment": the form suggests its first.
    await waitFor(() => expect(optionsOf(form)).toEqual(['Payment expired ($30.00)']), { timeout: 5000 });
    expect(within(form).getByRole('textbox', { name: 'Fine ($)' })).toHaveValue('30.00');
    expect(within(form).queryByText(/has not reached this device/)).toBeNull();
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Location' }), 'Union Station Garage');
    expect(optionsOf(form)).toEqual(['No payment ($60.00)', 'Blocking a driveway ($40.00)']);
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Violation' }), 'blocking_a_driveway');
    expect(within(form).getByRole('textbox', { name: 'Fine ($)' })).toHaveValue('40.00');
    first.unmount();

    // Offline later (a reload in the garage): the kept lists, not the defaults.
    renderDesk({ ...NO_RECORD, at: 2 }, net.api);
    const again = await screen.findByRole('region', { name: 'Write citation' });
    await waitFor(() => expect(optionsOf(again)).toEqual(['Payment expired ($30.00)']), { timeout: 5000 });
    await userEvent.click(within(again).getByRole('button', { name: 'Save citation' }));
    await waitFor(async () => expect(await outbox.citations.toArray()).toMatchObject([{ input: { violation: 'expired', fine_cents: 3000 }, violation_label: 'Payment expired' }]));
  });

  it('falls back to the usual violations when the location’s list never reached the device, and says so', async () => {
    const { api } = network();
    renderDesk(NO_RECORD, api);
    const form = await screen.findByRole('region', { name: 'Write citation' });
    expect(await within(form).findByText(/This location’s own list has not reached this device yet/)).toBeInTheDocument();
    expect(optionsOf(form)).toHaveLength(7);
    expect(within(form).getByRole('combobox', { name: 'Violation' })).toHaveAccessibleDescription(/usual violations and fines/);
  });
});

describe('after the enforcement store was rebuilt for this version', () => {
  const desk = (api: ApiClient) => (
    <CitationDesk api={api} officer="officer@example.com" locations={[UNION_STATION]} draft={null} onDraftClosed={vi.fn()} onWaiting={vi.fn()} outbox={outbox} storeRebuilt />
  );

  it('tells the officer once that the citations waiting to upload are kept', async () => {
    const { api } = network();
    const values = { location_id: 1, license_plate: 'KEEP1', issued_at: new Date().toISOString(), violation: 'no_payment', fine_cents: 5000, notes: '', verdict: { headline: 'NO RECORD', detail: '' } };
    await saveCitation(outbox, 'officer@example.com', values, []);
    await saveCitation(outbox, 'officer@example.com', { ...values, license_plate: 'KEEP2' }, []);
    const { rerender } = render(desk(api));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('The data on this device was rebuilt for this version of the console. Your 2 citations waiting to upload are kept and will upload as before.');
    await userEvent.click(within(notice).getByRole('button', { name: 'OK' }));
    rerender(desk(api));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing when no citation is waiting', async () => {
    const { api } = network();
    render(desk(api));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
