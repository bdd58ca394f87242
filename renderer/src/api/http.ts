// The one HTTP helper of the web client: JSON in, JSON out, the session token in
// the `Service-Auth` header, errors as `ApiError` with the status and the server's message.

/** A failed API call: the HTTP status, the server's message (or the status text) and its result code. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 200 for a business failure (`{success:false, message, code}`), 0 for a network failure */
    readonly status: number,
    message: string,
    /** the server's result code (e.g. `share.password-wrong`); undefined when the answer had none */
    readonly code?: string,
    /** the request field a 400 answer names (`email`, `meta.name`), when it names one */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON when present. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * When true a 401 is just thrown. By default a 401 from `/api/v2/sec`, `/api/v2/admin`
   * or `/api/v1` ends the session and sends the user to the login page with a back-link.
   */
  noAuthRedirect?: boolean;
}

/** What the API helper needs from the rest of the app (set once in main.ts). */
export interface ApiHooks {
  /** the current session token, or null */
  token(): string | null;
  /** called when a secured call answered 401: the session is over */
  onUnauthorized(): void;
}

let hooks: ApiHooks = { token: () => null, onUnauthorized: () => undefined };

/** Connects the helper to the auth store and the router. */
export function configureApi(h: ApiHooks): void {
  hooks = h;
}

/** The headers that authenticate a request of the signed-in user (also used by tus uploads). */
export function authHeaders(): Record<string, string> {
  const token = hooks.token();
  return token ? { 'Service-Auth': token } : {};
}

const securedPath = /^\/api\/(v2\/(sec|admin)\/|v1\/)/;

/**
 * Calls a server route (`path` starts with `/api/`) on the page's own origin and
 * returns the parsed JSON body, or `undefined` for an empty body (204).
 * Throws `ApiError` for any non-2xx status, carrying the `message` of the server's
 * generic result when there is one.
 */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(), ...options.headers };
  const init: RequestInit = {
    method: options.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    signal: options.signal ?? null,
  };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
  const text = await response.text();
  const data: unknown = text === '' ? undefined : parseJson(text);
  if (!response.ok) {
    if (response.status === 401 && !options.noAuthRedirect && securedPath.test(path)) hooks.onUnauthorized();
    throw new ApiError(response.status, messageOf(data) ?? `${response.status} ${response.statusText}`.trim(), codeOf(data), fieldOf(data));
  }
  return data as T;
}

/** A generic result of the server: `{success, message, code}` plus route-specific fields. */
export interface BasicResult {
  success: boolean;
  message: string;
  /** the outcome as a machine code; Sharry-compatible servers may leave it out */
  code?: string;
}

/**
 * Like `apiFetch`, but a `{success:false, message}` answer is thrown as an
 * `ApiError` with status 200, so callers handle every failure in one `catch`.
 */
export async function apiResult<T extends BasicResult = BasicResult>(path: string, options: RequestOptions = {}): Promise<T> {
  const result = await apiFetch<T>(path, options);
  if (!result.success) throw new ApiError(200, result.message, result.code);
  return result;
}

/** The message and result code of an error answer's body, when it is JSON that has them. */
export function failureOf(text: string): { message?: string; code?: string; field?: string } {
  const data = parseJson(text);
  const message = messageOf(data);
  const code = codeOf(data);
  const field = fieldOf(data);
  return { ...(message === undefined ? {} : { message }), ...(code === undefined ? {} : { code }), ...(field === undefined ? {} : { field }) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Error pages from a proxy in front of the server are often plain text or HTML.
    return text;
  }
}

function fieldOf(data: unknown): string | undefined {
  return typeof data === 'object' && data !== null && 'field' in data && typeof data.field === 'string' ? data.field : undefined;
}

function codeOf(data: unknown): string | undefined {
  return typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string' ? data.code : undefined;
}

function messageOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  if ('message' in data && typeof data.message === 'string') return data.message;
  // The music gateway's refusals: `{type: "Error", error: {message}}` and `{type: "Ack", ack: {message}}`.
  for (const key of ['error', 'ack'] as const) {
    const inner = (data as Record<string, unknown>)[key];
    if (typeof inner === 'object' && inner !== null && 'message' in inner && typeof inner.message === 'string') return inner.message;
  }
  return undefined;
}
