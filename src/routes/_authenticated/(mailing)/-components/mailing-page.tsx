import { useEffect, useState } from 'react';
import type { ApiClient } from '../../../../api/client';
import { listMailings } from '../../../../api/mailing';
import type { Mailing, MailingOptions } from '../../../../contract/mailing';
import { JobHistory } from '../../../../ui/job-history';
import { SectionPage } from '../../../../ui/section-page';
import { MailingCompose } from './mailing-compose';
import { MAILING_HISTORY } from './mailing-history';
import { MailingProgress } from './mailing-progress';

export interface MailingPageProps {
  api: ApiClient;
  options: MailingOptions;
  mailings: Mailing[];
  /** The mailing whose progress is shown (the URL's `?mailing=`), or null for the newest unfinished one, if any. */
  shownId: number | null;
  onShow: (mailingId: number) => void;
}

/** Compose → preview → send, then the progress of the mailing in the URL, and History (docs/mailing.md). */
export function MailingPage({ api, options, mailings: loaded, shownId, onShow }: MailingPageProps) {
  const [mailings, setMailings] = useState(loaded);
  useEffect(() => setMailings(loaded), [loaded]);
  const unfinished = mailings.find((mailing) => mailing.state !== 'done');
  const shown = shownId ?? unfinished?.mailing_id ?? null;
  const refresh = () => void listMailings(api).then((page) => setMailings(page.rows), () => undefined);
  return (
    <SectionPage title="Mailing">
      <p className="page-subtitle">
        Write to monthly parkers or staff. Messages go out from the server at a set rate; parkers who opted out are
        never mailed, and nobody gets a mailing twice.
      </p>
      <MailingCompose
        api={api}
        options={options}
        onSent={(mailing) => {
          setMailings((current) => [mailing, ...current]);
          onShow(mailing.mailing_id);
        }}
      />
      {shown !== null && <MailingProgress key={shown} api={api} mailingId={shown} onFinished={refresh} />}
      <JobHistory kind={MAILING_HISTORY} jobs={mailings} shownId={shown} onShow={onShow} />
    </SectionPage>
  );
}
