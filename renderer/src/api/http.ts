// The one HTTP helper of the web client: JSON in, JSON out, cookies included.

/** A failed API call: the HTTP status and the server's message (or the status text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
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
}

/**
 * Calls a server route (`path` starts with `/api/`) on the page's own origin and
 * returns the parsed JSON body, or `undefined` for an empty body (204).
 * Throws `ApiError` for any non-2xx status, carrying the `message` of the server's
 * generic result when there is one.
 */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
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

  const response = await fetch(path, init);
  const text = await response.text();
  const data: unknown = text === '' ? undefined : parseJson(text);
  if (!response.ok) {
    throw new ApiError(response.status, messageOf(data) ?? `${response.status} ${response.statusText}`.trim());
  }
  return data as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Error pages from a proxy in front of the server are often plain text or HTML.
    return text;
  }
}

function messageOf(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string') {
    return data.message;
  }
  return undefined;
}
