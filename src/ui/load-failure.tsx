import { useRouter } from '@tanstack/react-router';
import { AccessDenied } from './access-denied';
import { ErrorScreen } from './error-screen';
import { LoadError } from './list-states';
import { loadFailureKind } from './load-failure-kind';
import { NotFound, type BackLink } from './not-found';
import { SectionPage } from './section-page';

export interface LoadFailureProps {
  /** What the route's guard or loader threw. */
  error: unknown;
  /** The page's title, kept above a failure it can explain. */
  title?: string | undefined;
  /** The way back from a record that is not there: the section's list. */
  back?: BackLink | undefined;
}

/**
 * Every route's error screen (the router's default and each route's `errorComponent`), in one place: a refusal is the
 * access-denied screen, an absence says so with a way back, only a failure a retry can fix offers Retry, and a fault
 * of the console is the error boundary's fixed text (spec §2).
 */
export function LoadFailure({ error, title, back }: LoadFailureProps) {
  const router = useRouter();
  const kind = loadFailureKind(error);
  if (kind === 'unexpected') {
    console.error(error);
    return <ErrorScreen />;
  }
  if (kind === 'denied') return <AccessDenied />;
  const message = error instanceof Error ? error.message : '';
  if (kind === 'notFound') return <NotFound message={message || 'There is nothing at this address.'} back={back} />;
  return (
    <SectionPage title={title ?? 'Could not load this page'}>
      <LoadError
        title="Could not load this page"
        message={message}
        onRetry={kind === 'retryable' ? () => void router.invalidate() : undefined}
      />
    </SectionPage>
  );
}
