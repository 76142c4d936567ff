import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from '../../src/api/save-file';
import { CsvExportButton } from '../../src/ui/csv-export-button';

describe('saving a downloaded CSV', () => {
  afterEach(() => vi.useRealTimers());

  it('clicks a temporary <a download> for an object URL of the blob, with the server’s file name, then releases it', () => {
    vi.useFakeTimers();
    const blob = new Blob(['Location ID,Name\r\n1,Union Station Garage\r\n'], { type: 'text/csv' });
    const created: Blob[] = [];
    const revoked: string[] = [];
    URL.createObjectURL = (object: Blob | MediaSource) => {
      created.push(object as Blob);
      return 'blob:http://localhost/csv-1';
    };
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });

    saveFile({ blob, fileName: 'locations-2026-11-23.csv' });

    expect(created).toEqual([blob]);
    expect(clicked).toEqual([{ href: 'blob:http://localhost/csv-1', download: 'locations-2026-11-23.csv', inDocument: true }]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(30_000);
    expect(revoked).toEqual(['blob:http://localhost/csv-1']);
    click.mockRestore();
  });
});

describe('the CSV export button', () => {
  it('waits while the file downloads, saying how much has arrived', async () => {
    let finish: () => void = () => undefined;
    render(
      <CsvExportButton
        onExport={(onProgress) =>
          new Promise<void>((resolve) => {
            onProgress(48_000);
            finish = resolve;
          })
        }
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByRole('button', { name: 'Exporting…' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('48 KB received');
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled());
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('says why an export failed, and can be tried again', async () => {
    render(<CsvExportButton onExport={() => Promise.reject(new Error('You do not have permission to view locations.'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Export failed: You do not have permission to view locations.');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});
