import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { personaPermissions } from '../fixtures/personas';
import { renderConsole } from './render-console';

// Two citations of this officer wait in the device's outbox (the outbox itself has its tests in src/api/citation-outbox).
const unsent = vi.hoisted(() => ({ count: 2, asked: [] as string[] }));
vi.mock('../../src/routes/-shared/unsent-citations', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/routes/-shared/unsent-citations')>()),
  unsentCitations: async (officer: string) => {
    unsent.asked.push(officer);
    return unsent.count;
  },
}));

describe('logging out with citations not uploaded', () => {
  it('asks first, stays signed in on Stay, and logs out keeping them on Log out', async () => {
    const { services } = renderConsole('/', { permissions: personaPermissions('officer') });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    await userEvent.click(within(sidebar).getByRole('link', { name: 'Logout' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Log out before your citations are uploaded?' });
    expect(dialog).toHaveTextContent('2 citations written on this device have not reached the office yet.');
    expect(unsent.asked).toEqual(['officer@example.com']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(services.logout).not.toHaveBeenCalled();

    await userEvent.click(within(sidebar).getByRole('link', { name: 'Logout' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Log out and keep them' }));
    await waitFor(() => expect(services.logout).toHaveBeenCalledOnce());
  });
});
