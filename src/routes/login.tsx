import { createFileRoute, redirect } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { safeRedirectTarget } from '../app/safe-redirect';
import { LoginForm } from './-components/login-form';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ redirect: z.catch(z.optional(z.string()), undefined) }),
  beforeLoad: ({ context, search }) => {
    if (context.auth.current().status === 'authenticated') {
      throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
    }
  },
  component: LoginForm,
});
