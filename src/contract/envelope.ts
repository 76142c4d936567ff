import * as z from 'zod/mini';

/**
 * Every response of the API is an envelope: success, data, message (spec §7). Errors may also carry `error`, which
 * holds a machine-readable code for the session errors of spec §8.
 */
export const SESSION_ERROR_CODES = ['TokenExpired', 'NoTokenProvided', 'InvalidToken'] as const;
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

export function isSessionErrorCode(value: unknown): value is SessionErrorCode {
  return typeof value === 'string' && (SESSION_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The `error` code of the 403 a disabled staff member's calls get: the console signs them out and says so in words
 * (a session error would only say to sign in again, which would not help).
 */
export const ACCOUNT_DISABLED = 'AccountDisabled';

export const envelopeSchema = z.object({
  success: z.boolean(),
  data: z.optional(z.unknown()),
  message: z.optional(z.string()),
  error: z.optional(z.string()),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export function successEnvelope<T extends z.core.$ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, message: z.optional(z.string()) });
}

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.optional(z.string()),
  /** What a client needs to act on the error: field errors of a 400, who changed a record for a 409. */
  data: z.optional(z.unknown()),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Header that carries the server's own session token (spec §7). */
export const SESSION_HEADER = 'JwtToken';
