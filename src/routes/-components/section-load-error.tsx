import { useRouter } from '@tanstack/react-router';
import { ApiError } from '../../api/client';
import { ConsoleRouteError } from '../../app/console-route-error';
import { LoadError } from '../../ui/list-states';
import { SectionPage } from '../../ui/section-page';

/**
 * A section page whose loader failed: its title, and the server's message with a retry in place of the content. A
 * guard's refusal and unexpected errors are the console's usual screens.
 */
export function SectionLoadError({ title, error }: { title: string; error: unknown }) {
  const router = useRouter();
  if (!(error instanceof ApiError)) return <ConsoleRouteError error={error as Error} reset={() => undefined} />;
  return (
    <SectionPage title={title}>
      <LoadError title="Could not load this page" message={error.message} onRetry={() => void router.invalidate()} />
    </SectionPage>
  );
}
