import { createContext, useContext, type ReactNode } from 'react';
import type { AuthView } from './auth-gate';

/**
 * What screens may ask of the session: sign in, reset a password, the password policy, log out, and the current
 * authentication view. The app provides the Firebase-backed implementation; component tests provide fakes.
 */
export interface SessionServices {
  signIn(email: string, password: string): Promise<void>;
  sendPasswordReset(email: string): Promise<void>;
  passwordMinLength(): Promise<number>;
  logout(): void;
}

const ServicesContext = createContext<SessionServices | null>(null);
const AuthViewContext = createContext<AuthView>({ status: 'resolving' });

export function SessionProvider(props: { services: SessionServices; view: AuthView; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={props.services}>
      <AuthViewContext.Provider value={props.view}>{props.children}</AuthViewContext.Provider>
    </ServicesContext.Provider>
  );
}

export function useSessionServices(): SessionServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useSessionServices needs a SessionProvider');
  return services;
}

export function useAuthView(): AuthView {
  return useContext(AuthViewContext);
}
