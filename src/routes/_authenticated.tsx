import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppLayout } from '../ui/app-layout';

/** Every page but /login sits under this pathless layout: no session token → /login, remembering where to return. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const auth = await context.auth.settled();
    if (auth.status !== 'authenticated') {
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    return { permissions: auth.permissions };
  },
  component: AppLayout,
});
