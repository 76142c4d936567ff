import { createFileRoute, redirect } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { homePath } from './-shared/navigation';
import { safeRedirectTarget } from './-shared/safe-redirect';
import { LoginForm } from './-login/login-form';

export const Route = createFileRoute('/login')({
  validateSearch: z.object({ redirect: z.catch(z.optional(z.string()), undefined) }),
  beforeLoad: ({ context, search }) => {
    const view = context.auth.current();
    if (view.status === 'authenticated') {
      const home = homePath({ permissions: view.permissions, isProductionHost: context.isProductionHost });
      throw redirect({ href: safeRedirectTarget(search.redirect, home), replace: true });
    }
  },
  component: LoginForm,
});
