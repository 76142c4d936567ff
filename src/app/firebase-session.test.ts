import { describe, expect, it, vi } from 'vitest';
import type { FirebaseAuth } from './firebase';
import { createFirebaseSessionServices, type FirebaseLoader } from './firebase-session';

/** Firebase not loaded yet: `loaded()` waits for the load, `load()` starts it (counted). */
function lazyFirebase(policyMinLength?: number) {
  const firebase = {
    auth: { name: 'auth' },
    signInWithEmailAndPassword: vi.fn(async () => ({})),
    sendPasswordResetEmail: vi.fn(async () => {}),
    validatePassword: vi.fn(async () => ({
      passwordPolicy: { customStrengthOptions: { minPasswordLength: policyMinLength } },
    })),
  } as unknown as FirebaseAuth;
  let finish: () => void = () => {};
  const whenLoaded = new Promise<FirebaseAuth>((resolve) => (finish = () => resolve(firebase)));
  const load = vi.fn(async () => {
    finish();
    return whenLoaded;
  });
  const loader: FirebaseLoader = { load, loaded: () => whenLoaded };
  return { firebase, loader, load, finishLoading: () => finish() };
}

describe('createFirebaseSessionServices', () => {
  it('a sign-in before the background load has finished loads Firebase and waits for it', async () => {
    const { firebase, loader, load } = lazyFirebase();
    const services = createFirebaseSessionServices(loader, () => {});
    await services.signIn('alice@example.com', 'secret-pass');
    expect(load).toHaveBeenCalledOnce();
    expect(firebase.signInWithEmailAndPassword).toHaveBeenCalledWith(firebase.auth, 'alice@example.com', 'secret-pass');
  });

  it('a sign-in failure carries the sentence for the login screen', async () => {
    const { firebase, loader } = lazyFirebase();
    vi.mocked(firebase.signInWithEmailAndPassword).mockRejectedValueOnce(
      Object.assign(new Error('Firebase: Error (auth/wrong-password).'), { code: 'auth/wrong-password' }),
    );
    const services = createFirebaseSessionServices(loader, () => {});
    await expect(services.signIn('alice@example.com', 'nope-nope')).rejects.toThrow('Wrong e-mail or password.');
  });

  it('a password reset loads Firebase, and answers the same whether or not the account exists', async () => {
    const { firebase, loader, load } = lazyFirebase();
    vi.mocked(firebase.sendPasswordResetEmail).mockRejectedValueOnce({ code: 'auth/user-not-found' });
    const services = createFirebaseSessionServices(loader, () => {});
    await expect(services.sendPasswordReset('nobody@example.com')).resolves.toBeUndefined();
    expect(load).toHaveBeenCalledOnce();
  });

  it("the password policy waits for the background load rather than starting it, and defaults to 6", async () => {
    const { loader, load, finishLoading } = lazyFirebase(undefined);
    const services = createFirebaseSessionServices(loader, () => {});
    const minLength = services.passwordMinLength();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(load).not.toHaveBeenCalled();
    finishLoading();
    await expect(minLength).resolves.toBe(6);

    const strict = lazyFirebase(12);
    strict.finishLoading();
    await expect(createFirebaseSessionServices(strict.loader, () => {}).passwordMinLength()).resolves.toBe(12);
  });
});
