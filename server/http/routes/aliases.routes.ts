import type { Request } from 'express';
import type { AliasChange } from '../../core/aliases/alias.types.js';
import type { RouteModule } from '../http-deps.js';
import { caller, query } from '../request-context.js';

const id = (req: Request): string => String(req.params['id']);

/** An optional field: undefined when absent (kept as it is), else the value or null. */
const optional = <T>(b: Record<string, unknown>, key: string, as: (v: unknown) => T): T | null | undefined =>
  b[key] === undefined ? undefined : b[key] === null ? null : as(b[key]);

/** The JSON body of `AliasChange` (already validated against openapi.yml). */
const toChange = (b: Record<string, unknown>): AliasChange => ({
  id: typeof b['id'] === 'string' && b['id'] !== '' ? b['id'] : null,
  name: String(b['name']),
  validity: Number(b['validity']),
  enabled: b['enabled'] === true,
  members: Array.isArray(b['members']) ? b['members'].map(String) : [],
  message: optional(b, 'message', String),
  maxSize: optional(b, 'maxSize', Number),
  expires: optional(b, 'expires', Number),
});

/** The owner's alias routes (`/sec/alias`, `/sec/alias-member`) and the guest page's `/open/alias/{id}`. */
export const aliasRoutes: RouteModule = (api, { aliases }) => {
  api.route('get', '/api/v2/sec/alias', async (_req, res) => {
    const q = (query(res)['q'] as string | undefined) ?? '';
    res.json({ items: await aliases.list(caller(res).accountId, q) });
  });

  api.route('post', '/api/v2/sec/alias', async (req, res) => {
    res.json(await aliases.create(caller(res).accountId, toChange(req.body as Record<string, unknown>)));
  });

  api.route('get', '/api/v2/sec/alias/{id}', async (req, res) => {
    res.json(await aliases.get(caller(res).accountId, id(req)));
  });

  api.route('post', '/api/v2/sec/alias/{id}', async (req, res) => {
    res.json(await aliases.modify(caller(res).accountId, id(req), toChange(req.body as Record<string, unknown>)));
  });

  api.route('delete', '/api/v2/sec/alias/{id}', async (req, res) => {
    res.json(await aliases.remove(caller(res).accountId, id(req)));
  });

  api.route('get', '/api/v2/sec/alias-member', async (_req, res) => {
    const q = (query(res)['q'] as string | undefined) ?? '';
    res.json({ items: await aliases.searchMembers(caller(res).accountId, q) });
  });

  api.route('get', '/api/v2/open/alias/{id}', async (req, res) => {
    res.json(await aliases.openInfo(id(req)));
  });
};
