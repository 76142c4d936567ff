import * as z from 'zod/mini';

/**
 * E-mail addresses within RFC 5321's lengths: a local part of at most 64 characters, a domain of at most 255 and a
 * whole address of at most 254 (what fits a forward-path). Longer ones pass a pattern check, but no mail server
 * takes them, so an account or a lookup with one could never be reached.
 */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_EMAIL_LOCAL_PART_LENGTH = 64;
export const MAX_EMAIL_DOMAIN_LENGTH = 255;

export function fitsRfc5321(address: string): boolean {
  const at = address.lastIndexOf('@');
  return (
    address.length <= MAX_EMAIL_LENGTH &&
    at <= MAX_EMAIL_LOCAL_PART_LENGTH &&
    address.length - at - 1 <= MAX_EMAIL_DOMAIN_LENGTH
  );
}

const TOO_LONG = `The e-mail address is too long: at most ${MAX_EMAIL_LOCAL_PART_LENGTH} characters before the @ and ${MAX_EMAIL_LENGTH} in all.`;
/**
 * An e-mail address, its pattern and its lengths (the whole one's in the OpenAPI document); `invalidMessage` for a
 * form, zod's own messages without it.
 */
export const emailAddress = (invalidMessage?: string) =>
  z.email(invalidMessage).check(z.maxLength(MAX_EMAIL_LENGTH, TOO_LONG), z.refine(fitsRfc5321, TOO_LONG));
