import * as z from 'zod/mini';
import { envelopeSchema, isSessionErrorCode, SESSION_HEADER, type SessionErrorCode } from '../contract/envelope';

/** A failed API call. `message` is what the console shows; `code` is the server's `error` code when there is one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status?: number;
  readonly code?: string;

  constructor(message: string, options: { status?: number; code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
  }
}

export const NETWORK_ERROR_MESSAGE = 'Network error: could not reach the server';

type QueryValue = string | number | boolean | null | undefined;
/** GET payload, sent as query parameters; arrays become repeated keys, null and undefined are left out. */
export type QueryPayload = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

export interface RequestOptions {
  /** Aborts the call; an aborted call rejects with the fetch AbortError, not an ApiError. */
  signal?: AbortSignal;
}

export interface ApiClient {
  get<S extends z.core.$ZodType>(
    path: string,
    payload: QueryPayload | undefined,
    dataSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>>;
  post<S extends z.core.$ZodType>(
    path: string,
    payload: unknown,
    dataSchema: S,
    options?: RequestOptions,
  ): Promise<z.output<S>>;
}

export interface ApiClientOptions {
  /** Origin and prefix of the API, e.g. `https://…cloudfunctions.net/api` or `/api`. */
  apiBase: string;
  /** The signed-in identity's ID token; null when nobody is signed in. */
  getIdToken: () => Promise<string | null>;
  /** The server's session token from the stored session (`lpa`), sent as the JwtToken header. */
  getSessionToken: () => string | null;
  /** Called on TokenExpired, NoTokenProvided or InvalidToken; the app clears the session and goes to /login. */
  onSessionError: (code: SessionErrorCode) => void;
  /** Every failed call but session errors and aborts, so the console can show the server's message (a toast). */
  onError?: (error: ApiError) => void;
  fetch?: typeof globalThis.fetch;
}

export function buildQueryString(payload: QueryPayload | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload ?? {})) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) {
      if (item !== null && item !== undefined) params.append(key, String(item));
    }
  }
  return params.toString();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * zod/mini loads no locale (English would add a kilobyte or two to every page), so messages say "Invalid input"; the
 * path still names the field that does not match the contract.
 */
function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The one client of the API (spec §7–§8): headers, envelope, and error mapping. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { getIdToken, getSessionToken, onSessionError } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const apiBase = options.apiBase.replace(/\/+$/, '');

  async function request<S extends z.core.$ZodType>(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    dataSchema: S,
    requestOptions: RequestOptions | undefined,
  ): Promise<z.output<S>> {
    let idToken: string | null;
    try {
      idToken = await getIdToken();
    } catch (error) {
      throw new ApiError(`Could not get the sign-in token: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    // Spec §8: without a token the call fails with an empty message, and nothing is sent.
    if (!idToken) throw new ApiError('');

    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${idToken}` };
    const sessionToken = getSessionToken();
    if (sessionToken) headers[SESSION_HEADER] = sessionToken;

    let url = `${apiBase}${path}`;
    let body: string | undefined;
    if (method === 'GET') {
      const query = buildQueryString(payload as QueryPayload | undefined);
      if (query) url += `${url.includes('?') ? '&' : '?'}${query}`;
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(payload ?? {});
    }

    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        body,
        credentials: 'include',
        signal: requestOptions?.signal,
      });
      text = await response.text();
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, { cause: error });
    }
    const { status } = response;

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(`Unexpected response from the server (HTTP ${status}): the body is not JSON`, { status });
    }

    // Session errors may come with any status (401 from the reference API); each ends the session.
    if (isRecord(json) && isSessionErrorCode(json.error)) {
      const code = json.error;
      onSessionError(code);
      throw new ApiError(typeof json.message === 'string' ? json.message : code, { status, code });
    }

    if (!response.ok) {
      const code = isRecord(json) && typeof json.error === 'string' ? json.error : undefined;
      const carried = isRecord(json) ? (json.error ?? json.message ?? json.data) : undefined;
      const message =
        carried !== undefined && carried !== null ? describeValue(carried) : `Request failed (HTTP ${status})`;
      throw new ApiError(message, { status, code });
    }

    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      throw new ApiError(
        `Unexpected response from the server for ${method} ${path}: ${describeIssues(envelope.error)}`,
        { status },
      );
    }
    if (!envelope.data.success) {
      throw new ApiError(envelope.data.message ?? '', { status, code: envelope.data.error });
    }

    const data = z.safeParse(dataSchema, envelope.data.data);
    if (!data.success) {
      throw new ApiError(
        `Unexpected response from the server for ${method} ${path}: data ${describeIssues(data.error)}`,
        { status },
      );
    }
    return data.data;
  }

  function reported<T>(call: Promise<T>): Promise<T> {
    return call.catch((error: unknown) => {
      if (error instanceof ApiError && !isSessionErrorCode(error.code) && error.message) options.onError?.(error);
      throw error;
    });
  }

  return {
    get: (path, payload, dataSchema, requestOptions) =>
      reported(request('GET', path, payload, dataSchema, requestOptions)),
    post: (path, payload, dataSchema, requestOptions) =>
      reported(request('POST', path, payload, dataSchema, requestOptions)),
  };
}
