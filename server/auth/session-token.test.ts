import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessionTokens } from './session-token';

const secret = new TextEncoder().encode('unit-test-secret-unit-test-secret-0123');
const otherSecret = new TextEncoder().encode('a-different-secret-a-different-secret');
const start = new Date('2026-01-10T08:00:00Z');
const officer = { email: 'officer@example.com', uid: 'uid-officer' };

function tokensAt(clock: { now: Date }, key = secret) {
  return createSessionTokens({ secret: key, ttlSeconds: 600, now: () => clock.now });
}

describe('session tokens', () => {
  it('verify the e-mail, uid and expiry they were issued with', async () => {
    const clock = { now: start };
    const tokens = tokensAt(clock);
    const issued = await tokens.issue(officer);
    expect(issued.expiresAt.toISOString()).toBe('2026-01-10T08:10:00.000Z');
    expect(await tokens.verify(issued.token)).toEqual({
      ok: true,
      claims: { email: 'officer@example.com', uid: 'uid-officer', expiresAt: issued.expiresAt },
    });
  });

  it.each([undefined, null, '', '   '])('report NoTokenProvided for %j', async (token) => {
    expect(await tokensAt({ now: start }).verify(token)).toMatchObject({ ok: false, code: 'NoTokenProvided' });
  });

  it('report TokenExpired after the time to live, not before', async () => {
    const clock = { now: start };
    const tokens = tokensAt(clock);
    const { token } = await tokens.issue(officer);
    clock.now = new Date(start.getTime() + 599_000);
    expect((await tokens.verify(token)).ok).toBe(true);
    clock.now = new Date(start.getTime() + 601_000);
    expect(await tokens.verify(token)).toMatchObject({ ok: false, code: 'TokenExpired', message: expect.any(String) });
  });

  it('report InvalidToken for garbage, tampering and a foreign key', async () => {
    const tokens = tokensAt({ now: start });
    const { token } = await tokens.issue(officer);
    const [header, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ email: 'admin@example.com', exp: 2e9 })).toString('base64url');
    const foreign = await tokensAt({ now: start }, otherSecret).issue(officer);
    // Verified once (and so remembered), the good token must not make its tampered copies pass.
    expect((await tokens.verify(token)).ok).toBe(true);
    for (const bad of ['garbage', 'a.b.c', `${header}.${forgedPayload}.${signature}`, foreign.token, `${token}x`]) {
      expect(await tokens.verify(bad), bad).toMatchObject({ ok: false, code: 'InvalidToken' });
    }
  });

  it('treat an expired token with a bad signature as invalid, not expired', async () => {
    const clock = { now: start };
    const foreign = await tokensAt(clock, otherSecret).issue(officer);
    clock.now = new Date(start.getTime() + 3_600_000);
    expect(await tokensAt(clock).verify(foreign.token)).toMatchObject({ code: 'InvalidToken' });
  });

  it('refuse tokens without an e-mail or uid, or signed with another algorithm', async () => {
    const tokens = tokensAt({ now: start });
    const noEmail = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('uid-officer')
      .setAudience('lightning-pay-admin')
      .setExpirationTime(Math.floor(start.getTime() / 1000) + 60)
      .sign(secret);
    // What the API issued before sessions were bound to the identity's uid.
    const noUid = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('lightning-pay-admin')
      .setExpirationTime(Math.floor(start.getTime() / 1000) + 60)
      .sign(secret);
    const hs512 = await new SignJWT({ email: 'a@example.com' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('uid-a')
      .setAudience('lightning-pay-admin')
      .setExpirationTime(Math.floor(start.getTime() / 1000) + 60)
      .sign(secret);
    const encode = (json: string) => Buffer.from(json).toString('base64url');
    const unsigned = `${encode('{"alg":"none"}')}.${encode('{"email":"a@example.com","exp":9999999999}')}.`;
    for (const bad of [noEmail, noUid, hs512, unsigned]) {
      expect(await tokens.verify(bad)).toMatchObject({ ok: false, code: 'InvalidToken' });
    }
  });
});
