/**
 * Bad input on every JSON route of the OpenAPI file, the player's command routes (which
 * parse their body by hand) included: malformed JSON, wrong types and huge strings are a
 * 400 (413 for a body over the JSON limit), never a 500, never a stack trace. The
 * requests carry valid credentials for their zone (a real alias, a real daemon), so the
 * 400 comes from reading the body and not from a check before it. Unknown fields are
 * ignored by design and not tried here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from '../../../server/http/openapi.js';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

interface Schema {
  type?: string;
  maxLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  nullable?: boolean;
}

const { doc } = loadOpenApi();
const schemas = (doc.components?.['schemas'] ?? {}) as Record<string, Schema>;
const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[s.$ref.replace('#/components/schemas/', '')]!) : s);

/** Every operation with a JSON request body: method, concrete path, the body schema. */
const jsonRoutes = Object.entries(doc.paths).flatMap(([path, item]) =>
  (['post', 'put', 'patch'] as const).flatMap((m) => {
    const op = item[m] as { requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;
    const schema = op?.requestBody?.content?.['application/json']?.schema;
    // the player's id is the daemon connection; other ids need not exist (the body is read first)
    const concrete = path.startsWith('/api/v1/player') ? path.replace('{id}', 'default') : path.replace(/\{[^}]+\}/g, 'some-id');
    return schema ? [{ method: m.toUpperCase(), path: concrete, schema: resolve(schema) }] : [];
  }),
);

/** A value of the wrong JSON type for a property schema. */
const wrongValue = (s: Schema): unknown => {
  const t = resolve(s).type;
  return t === 'string' ? 12345 : t === 'array' ? 'not an array' : t === 'object' ? [1] : 'not a number or boolean';
};

/** A body that satisfies the required fields with plausible values. */
const plausible = (s: Schema): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of s.required ?? []) {
    const p = resolve(s.properties?.[key] ?? {});
    out[key] = p.type === 'string' ? 'x' : p.type === 'boolean' ? true : p.type === 'array' ? [] : p.type === 'object' ? {} : 1;
  }
  return out;
};

describe('bad input on every JSON route', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;
  let aliasId: string;
  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: { 'rate-limit': { enabled: false }, ...playerConfig(mpd) } });
    token = await s.login(ADMIN.login, ADMIN.password);
    const alias = await s.request<{ id: string }>('POST', '/api/v2/sec/alias', { name: 'Inbox', validity: 86_400_000, enabled: true, members: [] }, { token });
    aliasId = alias.body.id;
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.stop();
  });

  const send = (method: string, path: string, raw: string) =>
    fetch(s.url + path, {
      method,
      headers: { 'Content-Type': 'application/json', 'Service-Auth': token, 'Service-Alias': aliasId },
      body: raw,
    });

  it('covers the JSON routes of the file, whose strings all have a maximum length', () => {
    expect(jsonRoutes).toHaveLength(28);
    expect(jsonRoutes.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/v1/player', '/api/v1/player/default', '/api/v2/alias/upload/new', '/api/v2/alias/mail/notify/some-id']));
    const unbounded = jsonRoutes.flatMap((r) =>
      Object.entries(r.schema.properties ?? {})
        .filter(([, p]) => resolve(p).type === 'string' && resolve(p).maxLength === undefined)
        .map(([k]) => `${r.method} ${r.path} ${k}`),
    );
    expect(unbounded).toEqual([]);
  });

  it('answers malformed JSON, wrong types and huge strings with 400', async () => {
    const failures: string[] = [];
    for (const r of jsonRoutes) {
      const bodies: Array<[string, string]> = [
        ['malformed', '{"a": '],
        ['not an object', '"just a string"'],
      ];
      for (const [key, prop] of Object.entries(r.schema.properties ?? {})) {
        bodies.push([`wrong type of ${key}`, JSON.stringify({ ...plausible(r.schema), [key]: wrongValue(prop) })]);
        const p = resolve(prop);
        if (p.type === 'string' && p.maxLength !== undefined) {
          bodies.push([`huge ${key}`, JSON.stringify({ ...plausible(r.schema), [key]: 'x'.repeat(p.maxLength + 1) })]);
        }
      }
      for (const [what, raw] of bodies) {
        const res = await send(r.method, r.path, raw);
        const text = await res.text();
        if (res.status !== 400 || /\bat .*\.(ts|js):\d+/.test(text)) {
          failures.push(`${r.method} ${r.path} (${what}): ${res.status} ${text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers bodies over the JSON limit with 413, not 500', async () => {
    const res = await send('POST', '/api/v2/open/auth/login', JSON.stringify({ account: 'a', password: 'x'.repeat(2_000_000) }));
    expect(res.status).toBe(413);
  });

  it('answers huge headers with 431 and keeps serving', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolveStatus, reject) => {
      const req = request(`${s.url}/api/v2/open/info/version`, { headers: { 'X-Huge': 'x'.repeat(100_000) } }, (res) => {
        res.resume();
        resolveStatus(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect((await fetch(`${s.url}/api/v2/open/info/version`)).status).toBe(200);
  });

  it('answers tus headers with negative, non-numeric or enormous values with 400, a length over the limit with 413', async () => {
    const share = await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { name: null, validity: 3_600_000, maxViews: 3, description: null, password: null }, { token });
    const tus = `/api/v2/sec/upload/${share.body.id}/files/tus`;
    const statuses: Record<string, number> = {};
    for (const length of ['-1', 'abc', '1e3', '99999999999999999999999', '', '9007199254740991']) {
      const res = await fetch(s.url + tus, { method: 'POST', headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': length } });
      statuses[length] = res.status;
    }
    // not a safe non-negative integer: 400; a length over the share's size limit: 413
    expect(statuses).toEqual({ '-1': 400, abc: 400, '1e3': 400, '99999999999999999999999': 400, '': 400, '9007199254740991': 413 });
    const created = await fetch(s.url + tus, { method: 'POST', headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' } });
    const url = created.headers.get('location')!;
    const offsets: Record<string, number> = {};
    for (const offset of ['-1', 'abc', '99999999999999999999999', '1.5', '5']) {
      const res = await fetch(url, {
        method: 'PATCH',
        headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': offset, 'Content-Type': 'application/offset+octet-stream' },
        body: 'abc',
      });
      offsets[offset] = res.status;
    }
    // not a safe non-negative integer: 400; one that is not the stored offset: 409
    expect(offsets).toEqual({ '-1': 400, abc: 400, '99999999999999999999999': 400, '1.5': 400, '5': 409 });
  });
});
