import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { AccessDeniedError } from '../app/access-denied-error';
import { ApiError } from '../api/client';
import { AccessDenied } from './access-denied';
import { ErrorScreen } from './error-screen';

/**
 * What a route shows when it cannot render: the access-denied screen for a guard's refusal, the server's message
 * with a retry for a failed API call, and the error boundary's fixed text for anything unexpected.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  if (error instanceof AccessDeniedError) return <AccessDenied />;
  if (error instanceof ApiError) {
    return (
      <section className="notice-screen" role="alert">
        <h1>Could not load this page</h1>
        <p>{error.message || 'The server did not answer.'}</p>
        <button type="button" className="button" onClick={() => void router.invalidate()}>
          Try again
        </button>
      </section>
    );
  }
  console.error(error);
  return <ErrorScreen />;
}
