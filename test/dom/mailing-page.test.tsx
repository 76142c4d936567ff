import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import type { Mailing, MailingOptions, MailingPreview } from '../../src/contract/mailing';
import { MAILING_HISTORY } from '../../src/routes/_authenticated/(mailing)/-components/mailing-history';
import { formatDateTime } from '../../src/ui/format';
import { JobHistory } from '../../src/ui/job-history';
import { viewerTimeZone } from '../../src/ui/zoned-time';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';
import { pageOf, sectionApi } from './section-api';

const options: MailingOptions = {
  locations: [
    { location_id: 1, name: 'Union Station Garage' },
    { location_id: 3, name: 'Pike Place Market Garage' },
  ],
  parkerStatuses: ['Active', 'Inactive'],
  roles: [{ role_id: 2, name: 'Officers' }],
};
const preview: MailingPreview = {
  recipientCount: 512,
  optedOutCount: 9,
  samples: [
    {
      name: 'Ada Lovelace',
      subject: 'Hello Ada',
      html: '<!doctype html><html><body><p>Dear <strong>Ada</strong></p></body></html>',
      text: 'Dear **Ada**',
    },
  ],
};
const mailing = (changes: Partial<Mailing> = {}): Mailing => ({
  mailing_id: 12,
  subject: 'Garage news',
  segment: { kind: 'parkers', locationIds: [3], parkerStatus: 'Active' },
  segment_label: 'Active monthly parkers at Pike Place Market Garage',
  state: 'sending',
  recipient_count: 512,
  sent: 100,
  failed: 2,
  skipped: 0,
  left: 410,
  created_by_email: 'superuser@example.com',
  created_at: '2026-11-24T02:00:00.000Z',
  finished_at: null,
  ...changes,
});

function openMailing(post: Record<string, unknown>, path = '/mailing') {
  const { api, calls } = sectionApi({
    get: { '/mailings/options': options, '/mailings': pageOf([] as Mailing[]), '/mailings/12': mailing({ state: 'done', sent: 510, left: 0 }) },
    post,
  });
  const rendered = renderConsole(path, { permissions: personaPermissions('superuser'), api });
  return { calls, ...rendered };
}

async function compose() {
  await userEvent.type(await screen.findByRole('textbox', { name: 'Subject' }), 'Garage news');
  await userEvent.type(screen.getByRole('textbox', { name: 'Message (Markdown)' }), 'Dear **{{{{first_name}}**');
  await userEvent.click(screen.getByRole('checkbox', { name: 'Pike Place Market Garage' }));
}

describe('the mailing screen', () => {
  it('composes, previews in a sandboxed frame, sends after confirming, and shows the progress', async () => {
    const { calls, router } = openMailing({
      '/mailings/preview': preview,
      '/mailings': () => mailing({ state: 'queued', sent: 0, failed: 0, left: 512 }),
    });
    await compose();
    expect(screen.getByRole('button', { name: 'Send…' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const expected = { subject: 'Garage news', body: 'Dear **{{first_name}}**', segment: { kind: 'parkers', locationIds: [3], parkerStatus: 'Active' } };
    await waitFor(() => expect(calls.find((c) => c.path === '/mailings/preview')?.payload).toEqual(expected));
    expect(await screen.findByRole('status')).toHaveTextContent('512 recipients (9 opted out, not mailed)');
    const frame = screen.getByTitle('Message for Ada Lovelace');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('<strong>Ada</strong>');

    await userEvent.click(screen.getByRole('button', { name: 'Send…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('goes to 512 recipients');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST' && c.path === '/mailings')).toHaveLength(1));
    await waitFor(() => expect(router.state.location.search).toEqual({ mailing: 12 }));
    expect(await screen.findByTestId('mailing-state')).toHaveTextContent('Done');
    expect(screen.getByTestId('mailing-sent')).toHaveTextContent('510');
    expect(screen.getByTestId('mailing-left')).toHaveTextContent('0');
  });

  it('says what is missing at each field and calls nothing', async () => {
    const { calls } = openMailing({});
    await userEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveAccessibleDescription('Enter the subject.');
    expect(screen.getByText('Choose at least one location.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keeps everything typed when the server refuses, placing its field errors', async () => {
    openMailing({
      '/mailings/preview': () => {
        throw new ApiError('Invalid', {
          status: 400,
          data: { fieldErrors: { 'segment.locationIds': 'No location with id 3.' } },
        });
      },
      '/mailings/test': () => {
        throw new ApiError('The test message could not be sent: connection refused', { status: 409 });
      },
    });
    await compose();
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('No location with id 3.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('connection refused');
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveValue('Garage news');
    expect(screen.getByRole('textbox', { name: 'Message (Markdown)' })).toHaveValue('Dear **{{first_name}}**');
    expect(screen.getByRole('checkbox', { name: 'Pike Place Market Garage' })).toBeChecked();
  });

  it('shows the progress of the mailing in the URL after a reload', async () => {
    openMailing({}, '/mailing?mailing=12');
    expect(await screen.findByTestId('mailing-state')).toHaveTextContent('Done');
    expect(screen.getByTestId('mailing-failed')).toHaveTextContent('2');
  });

  it('shows when each mailing was sent on the viewer’s clock in the one format, not as ISO text', () => {
    render(<JobHistory kind={MAILING_HISTORY} jobs={[mailing()]} shownId={null} onShow={() => {}} />);
    const sent = screen.getByText(formatDateTime('2026-11-24T02:00:00.000Z', viewerTimeZone()));
    expect(sent).toHaveAttribute('dateTime', '2026-11-24T02:00:00.000Z');
    expect(document.body.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/);
  });

  it('denies anyone but a superuser', async () => {
    const { api } = sectionApi({ get: {} });
    renderConsole('/mailing', { permissions: personaPermissions('admin'), api });
    expect(await screen.findByText(/Access denied/)).toBeInTheDocument();
  });
});
