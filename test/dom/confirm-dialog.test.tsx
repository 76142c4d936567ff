import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../../src/ui/confirm-dialog';

function Harness({ onConfirm, busy = false, error }: { onConfirm: () => void; busy?: boolean; error?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Delete garage</button>}
      title="Delete Union Station Garage?"
      description={<p>This cannot be undone.</p>}
      confirmLabel="Delete"
      busyLabel="Deleting…"
      destructive
      busy={busy}
      error={error}
      onConfirm={onConfirm}
    />
  );
}

describe('ConfirmDialog', () => {
  it('opens from its trigger with Cancel focused, and Escape closes it with focus back on the trigger', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete garage' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Union Station Garage?' });
    expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Delete garage' })).toHaveFocus();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs the action on confirm; the caller decides when it closes', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete garage' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('while busy both buttons wait and Escape does not close it; an error is shown inside', async () => {
    const { rerender } = render(<Harness onConfirm={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete garage' }));
    await screen.findByRole('alertdialog');
    rerender(<Harness onConfirm={() => undefined} busy />);
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Deleting…' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    rerender(<Harness onConfirm={() => undefined} error="It has payments; deactivate it instead." />);
    expect(within(screen.getByRole('alertdialog')).getByRole('alert')).toHaveTextContent('It has payments');
  });
});
