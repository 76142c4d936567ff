import * as z from 'zod/mini';
import { ACCOUNT_DISABLED, envelopeSchema, isSessionErrorCode, SESSION_HEADER, type SessionErrorCode } from '../contract/envelope';
import { ApiError, isAbortError, type DownloadedFile, type DownloadOptions, type RequestOptions } from './api-error';

// Callers import the client's error and options from here, as before they had a module of their own.
export { ApiError };
export type { DownloadedFile, DownloadOptions, RequestOptions };

export const NETWORK_ERROR_MESSAGE = 'Network error: could not reach the server';

type QueryValue = string | number | boolean | null | undefined;
/** GET payload, sent as query parameters; arrays become repeated keys, null and undefined are left out. */
export type QueryPayload = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

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
  /** GET a file (CSV export) with the same headers and error mapping as every other call. */
  download(path: string, payload: QueryPayload | undefined, options: DownloadOptions): Promise<DownloadedFile>;
  /** GET a Server-Sent Events stream with the same headers (which EventSource cannot send) and error mapping. */
  stream(path: string, payload: QueryPayload | undefined, options?: RequestOptions): Promise<Response>;
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
  /**
   * Called when the server refuses a call because the staff account was disabled (error AccountDisabled), with its
   * sentence; the app signs the user out and shows it on the login screen.
   */
  onAccountDisabled?: (message: string) => void;
  /** Every failed call but session errors, a disabled account and aborts, so the console can show the server's message (a toast). */
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

/** A response whose data does not match the contract: names the request and up to three fields. */
export function unexpectedData(method: string, path: string, error: z.core.$ZodError, status: number): ApiError {
  return new ApiError(`Unexpected response from the server for ${method} ${path}: data ${describeIssues(error)}`, { status });
}

/** The one client of the API (spec §7–§8): headers, envelope, and error mapping. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { getIdToken, getSessionToken, onSessionError } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const apiBase = options.apiBase.replace(/\/+$/, '');

  /** Sends a request with the spec's headers; resolves with the response, whatever its status. */
  async function send(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    accept: string,
    requestOptions: RequestOptions | undefined,
  ): Promise<Response> {
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

    const headers: Record<string, string> = { ...requestOptions?.headers, Accept: accept, Authorization: `Bearer ${idToken}` };
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

    try {
      return await fetchImpl(url, {
        method,
        headers,
        body,
        credentials: 'include',
        signal: requestOptions?.signal,
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, { cause: error });
    }
  }

  async function readText(response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(NETWORK_ERROR_MESSAGE, { cause: error });
    }
  }

  /** The error a failed response stands for: a session error ends the session; others carry message, code, data. */
  function failureOf(status: number, json: unknown): ApiError {
    // Session errors may come with any status (401 from the reference API); each ends the session.
    if (isRecord(json) && isSessionErrorCode(json.error)) {
      const code = json.error;
      onSessionError(code);
      return new ApiError(typeof json.message === 'string' ? json.message : code, { status, code });
    }
    if (isRecord(json) && json.error === ACCOUNT_DISABLED) {
      const message = typeof json.message === 'string' ? json.message : 'This staff account is disabled.';
      options.onAccountDisabled?.(message);
      return new ApiError(message, { status, code: ACCOUNT_DISABLED });
    }
    const code = isRecord(json) && typeof json.error === 'string' ? json.error : undefined;
    const data = isRecord(json) ? json.data : undefined;
    const carried = isRecord(json) ? (json.error ?? json.message ?? json.data) : undefined;
    const message =
      carried !== undefined && carried !== null ? describeValue(carried) : `Request failed (HTTP ${status})`;
    return new ApiError(message, { status, code, data });
  }

  function parseJson(text: string, status: number): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError(`Unexpected response from the server (HTTP ${status}): the body is not JSON`, { status });
    }
  }

  async function request<S extends z.core.$ZodType>(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    dataSchema: S,
    requestOptions: RequestOptions | undefined,
  ): Promise<z.output<S>> {
    const response = await send(method, path, payload, 'application/json', requestOptions);
    const text = await readText(response);
    const { status } = response;
    const json = parseJson(text, status);

    if (isRecord(json) && isSessionErrorCode(json.error)) throw failureOf(status, json);
    if (!response.ok) throw failureOf(status, json);

    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      throw new ApiError(
        `Unexpected response from the server for ${method} ${path}: ${describeIssues(envelope.error)}`,
        { status },
      );
    }
    if (!envelope.data.success) {
      throw new ApiError(envelope.data.message ?? '', { status, code: envelope.data.error, data: envelope.data.data });
    }

    const data = z.safeParse(dataSchema, envelope.data.data);
    if (!data.success) {
      throw unexpectedData(method, path, data.error, status);
    }
    return data.data;
  }

  /** A GET whose success is not JSON (a CSV, an event stream): the response, or the refusal as an ApiError. */
  async function opened(path: string, payload: QueryPayload | undefined, accept: string, requestOptions?: RequestOptions) {
    const response = await send('GET', path, payload, `${accept}, application/json`, requestOptions);
    const { status } = response;
    // A refusal comes as the usual JSON envelope, whatever was asked for.
    if (!response.ok || (response.headers.get('Content-Type') ?? '').includes('application/json')) {
      throw failureOf(status, parseJson(await readText(response), status));
    }
    return response;
  }

  async function download(
    path: string,
    payload: QueryPayload | undefined,
    downloadOptions: DownloadOptions,
  ): Promise<DownloadedFile> {
    const response = await opened(path, payload, 'text/csv', downloadOptions);
    // Reading the body (with progress) is only needed on an export's click: loaded then, not with every page.
    const { readDownload } = await import('./download-body');
    return readDownload(response, downloadOptions);
  }

  function reported<T>(call: Promise<T>, requestOptions: RequestOptions | undefined): Promise<T> {
    return call.catch((error: unknown) => {
      if (
        error instanceof ApiError &&
        !isSessionErrorCode(error.code) &&
        error.code !== ACCOUNT_DISABLED &&
        error.message &&
        !(error.status !== undefined && requestOptions?.quietStatuses?.includes(error.status))
      ) {
        options.onError?.(error);
      }
      throw error;
    });
  }

  return {
    get: (path, payload, dataSchema, requestOptions) =>
      reported(request('GET', path, payload, dataSchema, requestOptions), requestOptions),
    post: (path, payload, dataSchema, requestOptions) =>
      reported(request('POST', path, payload, dataSchema, requestOptions), requestOptions),
    download: (path, payload, downloadOptions) => reported(download(path, payload, downloadOptions), downloadOptions),
    // Not reported: a live view says itself that it is reconnecting, a toast per attempt would only repeat it.
    stream: (path, payload, requestOptions) => opened(path, payload, 'text/event-stream', requestOptions),
  };
}
