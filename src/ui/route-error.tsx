import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ApiError } from '../api/client';
import { ErrorScreen } from './error-screen';

/**
 * What a route shows when it cannot render: the server's message with a retry for a failed API call, and the error
 * boundary's fixed text for anything unexpected. A guard's refusal is the app's to recognise first
 * (src/app/console-route-error.tsx).
 */
export function RouteError({ error }: Pick<ErrorComponentProps, 'error'>) {
  const router = useRouter();
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
