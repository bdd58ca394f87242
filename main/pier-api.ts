/**
 * What the tray does through the server's own HTTP API, as the desktop's account:
 * sign in (first start), list and create upload links (aliases), share files (an
 * empty share, each file uploaded with tus and resumed after a broken connection,
 * published, its public link returned).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { TrayAlias } from './tray-menu.js';

const API = '/api/v2';
const TUS = { 'Tus-Resumable': '1.0.0' };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A client of one server (`baseUrl`, e.g. `http://127.0.0.1:9090`) with the desktop's token. */
export interface PierApi {
  listAliases(): Promise<TrayAlias[]>;
  /** Creates an enabled upload link; resolves with its id. */
  createAlias(name: string, validityMs: number): Promise<string>;
  /** Uploads `paths` into a new share, publishes it and resolves with the share's ids. */
  shareFiles(paths: string[], props: ShareProps, progress?: (done: number, total: number) => void): Promise<SharedFiles>;
  /** The open room of the player connection `default`, or a new one named `name`; resolves with its id. */
  openRoom(name: string): Promise<string>;
}

export interface ShareProps {
  name: string | null;
  validityMs: number;
  maxViews: number;
}

export interface SharedFiles {
  shareId: string;
  publishId: string;
}

type Json = Record<string, unknown>;

const call = async (baseUrl: string, method: string, path: string, token: string | null, body?: unknown, prefix = API): Promise<Json> => {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (token !== null) headers['Service-Auth'] = token;
  const res = await fetch(baseUrl + prefix + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    /* not JSON: the status decides */
  }
  if (!res.ok) throw new ApiError(typeof json['message'] === 'string' ? json['message'] : `${method} ${path}: HTTP ${res.status}`, res.status);
  return json;
};

/** A failed business outcome (`{success:false, message}`) becomes an error. */
const succeeded = (json: Json): Json => {
  if (json['success'] === false) throw new ApiError(String(json['message'] ?? 'The server refused.'), 200);
  return json;
};

/** Signs in with login and password; resolves with the account's id and admin flag. */
export const login = async (baseUrl: string, account: string, password: string): Promise<{ id: string; login: string; admin: boolean }> => {
  const r = succeeded(await call(baseUrl, 'POST', '/open/auth/login', null, { account, password }));
  return { id: String(r['id']), login: String(r['user']), admin: r['admin'] === true };
};

/** Uploads one file with tus, resuming from the server's offset after a failed PATCH. */
const uploadFile = async (baseUrl: string, token: string, shareId: string, path: string, attempts = 3): Promise<void> => {
  const { size } = await stat(path);
  const created = await fetch(`${baseUrl}${API}/sec/upload/${encodeURIComponent(shareId)}/files/tus`, {
    method: 'POST',
    headers: { ...TUS, 'Service-Auth': token, 'Upload-Length': String(size), 'Service-File-Name': encodeURIComponent(basename(path)) },
  });
  await created.arrayBuffer();
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new ApiError(`${basename(path)} could not be added (HTTP ${created.status}).`, created.status);

  let offset = 0;
  for (let attempt = 1; offset < size || size === 0; attempt++) {
    try {
      const res = await fetch(location, {
        method: 'PATCH',
        headers: { ...TUS, 'Service-Auth': token, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: Readable.toWeb(createReadStream(path, { start: offset })) as ReadableStream<Uint8Array>,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      await res.arrayBuffer();
      if (res.status !== 204) throw new ApiError(`${basename(path)} could not be uploaded (HTTP ${res.status}).`, res.status);
      return;
    } catch (e) {
      if (attempt >= attempts || (e instanceof ApiError && e.status !== 409 && e.status < 500)) throw e;
      // ask the server how much it has and go on from there
      const head = await fetch(location, { method: 'HEAD', headers: { ...TUS, 'Service-Auth': token } });
      offset = Number(head.headers.get('upload-offset') ?? '0');
    }
  }
};

export const createPierApi = (baseUrl: string, token: () => Promise<string>): PierApi => ({
  async listAliases() {
    const r = await call(baseUrl, 'GET', '/sec/alias', await token());
    const items = Array.isArray(r['items']) ? (r['items'] as Json[]) : [];
    return items.map((a) => ({ id: String(a['id']), name: String(a['name']), enabled: a['enabled'] === true }));
  },

  async openRoom(name) {
    const t = await token();
    const rooms = await call(baseUrl, 'GET', '/rooms', t, undefined, '/api/v1');
    const items = Array.isArray(rooms['items']) ? (rooms['items'] as Json[]) : [];
    const open = items.find((r) => r['enabled'] === true && r['connection'] === 'default' && Number(r['validUntil']) > Date.now());
    if (open) return String(open['id']);
    return String(succeeded(await call(baseUrl, 'POST', '/rooms', t, { name, connection: 'default' }, '/api/v1'))['id']);
  },

  async createAlias(name, validityMs) {
    const body = { name, validity: validityMs, enabled: true, members: [] };
    return String(succeeded(await call(baseUrl, 'POST', '/sec/alias', await token(), body))['id']);
  },

  async shareFiles(paths, props, progress) {
    const t = await token();
    const body = { name: props.name, validity: props.validityMs, maxViews: props.maxViews, description: null, password: null };
    const shareId = String(succeeded(await call(baseUrl, 'POST', '/sec/upload/new', t, body))['id']);
    for (const [i, path] of paths.entries()) {
      progress?.(i, paths.length);
      await uploadFile(baseUrl, t, shareId, path);
    }
    progress?.(paths.length, paths.length);
    succeeded(await call(baseUrl, 'POST', `/sec/share/${encodeURIComponent(shareId)}/publish`, t, { reuseId: true }));
    const detail = await call(baseUrl, 'GET', `/sec/share/${encodeURIComponent(shareId)}`, t);
    const publishId = (detail['publishInfo'] as Json | null)?.['id'];
    if (typeof publishId !== 'string') throw new ApiError('The share was not published.', 200);
    return { shareId, publishId };
  },
});

/** The public link of a published share. */
export const shareLink = (base: string, publishId: string): string => `${base}/app/open/${encodeURIComponent(publishId)}`;
/** The guest upload page of an alias. */
export const aliasLink = (base: string, aliasId: string): string => `${base}/app/share/${encodeURIComponent(aliasId)}`;

/** The guest page of a room. */
export const roomLink = (base: string, roomId: string): string => `${base}/app/room/${encodeURIComponent(roomId)}`;
