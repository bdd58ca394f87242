/**
 * Helpers of the alias and mail API tests: accounts made by the admin,
 * aliases made through the API, guest requests with `Service-Alias`, tus
 * uploads of a guest with tus-js-client.
 */
import * as tus from 'tus-js-client';
import { expect } from 'vitest';
import { ADMIN, type Json, type TestServer } from '../../support/server.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface User {
  id: string;
  login: string;
  token: string;
}

export interface AliasBody {
  id: string;
  name: string;
  validity: number;
  owner: string;
  enabled: boolean;
  members: { items: { id: string; login: string }[] };
  created: number;
  message: string | null;
  maxSize: number | null;
  expires: number | null;
}

export interface Result {
  success: boolean;
  message: string;
  id?: string;
}

export const adminToken = (s: TestServer): Promise<string> => s.login(ADMIN.login, ADMIN.password);

/** Creates an active account through the admin API and logs it in. */
export const createUser = async (s: TestServer, login: string, email: string | null = null): Promise<User> => {
  const admin = await adminToken(s);
  const res = await s.request<Result>('POST', '/api/v2/admin/account', { login, state: 'Active', admin: false, password: `${login}-password`, email }, { token: admin });
  expect(res.body.success, res.text).toBe(true);
  const list = await s.request<{ items: { id: string; login: string }[] }>('GET', `/api/v2/admin/account?q=${login}`, undefined, { token: admin });
  const account = list.body.items.find((a) => a.login === login)!;
  return { id: account.id, login, token: await s.login(login, `${login}-password`) };
};

/** The admin as a `User`. */
export const adminUser = async (s: TestServer): Promise<User> => {
  const token = await adminToken(s);
  const list = await s.request<{ items: { id: string; login: string }[] }>('GET', `/api/v2/admin/account?q=${ADMIN.login}`, undefined, { token });
  return { id: list.body.items.find((a) => a.login === ADMIN.login)!.id, login: ADMIN.login, token };
};

export const setEmail = async (s: TestServer, u: User, email: string): Promise<void> => {
  const res = await s.request<Result>('POST', '/api/v2/sec/settings/email', { email }, { token: u.token });
  expect(res.body.success, res.text).toBe(true);
};

/** Creates an alias of `owner` and returns its id. */
export const createAlias = async (s: TestServer, owner: User, change: Json = {}): Promise<string> => {
  const res = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Inbox', validity: DAY, enabled: true, members: [], ...change }, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.success, res.text).toBe(true);
  return res.body.id!;
};

export const guest = (aliasId: string): Record<string, string> => ({ 'Service-Alias': aliasId });

/** A guest's empty share (`/alias/upload/new`). */
export const guestShare = async (s: TestServer, aliasId: string, props: Json = {}): Promise<string> => {
  const res = await s.request<Result>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10, ...props }, { headers: guest(aliasId) });
  expect(res.status, res.text).toBe(200);
  expect(res.body.success, res.text).toBe(true);
  return res.body.id!;
};

/** A multipart body with an optional `meta` part and file parts. */
export const multipartForm = (meta: Json | undefined, files: { name: string; content: string | Uint8Array }[]): FormData => {
  const fd = new FormData();
  if (meta) fd.append('meta', JSON.stringify(meta));
  for (const f of files) {
    const bytes = typeof f.content === 'string' ? new TextEncoder().encode(f.content) : f.content;
    fd.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), f.name);
  }
  return fd;
};

/** A raw multipart POST (the OpenAPI check of `request` does not read FormData bodies). */
export const postForm = async (s: TestServer, path: string, headers: Record<string, string>, body: FormData): Promise<{ status: number; body: Result; text: string }> => {
  const res = await fetch(s.url + path, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: Result;
  try {
    parsed = JSON.parse(text) as Result;
  } catch {
    parsed = { success: false, message: text };
  }
  return { status: res.status, body: parsed, text };
};

/** A guest's tus upload with tus-js-client; resolves with the upload URL. */
export const guestTusUpload = (
  s: TestServer,
  aliasId: string,
  shareId: string,
  data: Uint8Array,
  name: string,
  chunkSize = 64 * 1024,
  type = 'application/octet-stream',
): Promise<string> =>
  new Promise((resolve, reject) => {
    const upload = new tus.Upload(Buffer.from(data), {
      endpoint: `${s.url}/api/v2/alias/upload/${shareId}/files/tus`,
      chunkSize,
      retryDelays: [],
      headers: guest(aliasId),
      metadata: { filename: name, filetype: type },
      onError: reject,
      onSuccess: () => resolve(upload.url!),
    });
    upload.start();
  });

export const bytes = (n: number, seed = 7): Uint8Array => {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
};
