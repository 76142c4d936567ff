import { useEffect, useState } from 'react';
import { listCopies } from '../../../../api/database-copy';
import type { ApiClient } from '../../../../api/client';
import type { CopyOptions, DatabaseCopy } from '../../../../contract/database-copy';
import { JobHistory } from '../../../../ui/job-history';
import { SectionPage } from '../../../../ui/section-page';
import { CopyForm } from './copy-form';
import { COPY_HISTORY } from './copy-history';
import { CopyProgress } from './copy-progress';

export interface DatabaseCopyPageProps {
  api: ApiClient;
  choices: CopyOptions;
  copies: DatabaseCopy[];
  /** The copy whose progress is shown (the URL's `?copy=`), or null for the newest running one, if any. */
  shownCopyId: number | null;
  onShowCopy: (copyId: number | null) => void;
}

/** Choose, confirm, watch: the copy form, the progress of the copy in the URL (or the one running), and History. */
export function DatabaseCopyPage({ api, choices, copies: loaded, shownCopyId, onShowCopy }: DatabaseCopyPageProps) {
  const [copies, setCopies] = useState(loaded);
  useEffect(() => setCopies(loaded), [loaded]);
  const running = copies.find((copy) => copy.status === 'running');
  const shown = shownCopyId ?? running?.copy_id ?? null;
  const refreshHistory = () => void listCopies(api).then(setCopies, () => undefined);

  return (
    <SectionPage title="Database Copy">
      <p className="page-subtitle">
        Copies chosen tables from one database to another, replacing them on the target in one transaction: a copy
        that fails leaves the target as it was. Production databases are never a target.
      </p>
      {choices.databases.length < 2 ? (
        <p className="form-info">
          This server knows fewer than two databases. With PostgreSQL, list them in COPY_DATABASES (see docs/database-copy.md).
        </p>
      ) : (
        <CopyForm
          api={api}
          choices={choices}
          busy={running !== undefined}
          onStarted={(copy) => {
            onShowCopy(copy.copy_id);
            refreshHistory();
          }}
        />
      )}
      {shown !== null && (
        <CopyProgress key={shown} api={api} copyId={shown} choices={choices} onFinished={refreshHistory} />
      )}
      <JobHistory kind={COPY_HISTORY} jobs={copies} shownId={shown} onShow={onShowCopy} />
    </SectionPage>
  );
}
