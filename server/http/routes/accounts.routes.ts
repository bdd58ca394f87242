import { optionalEmail } from '../../common/email.js';
import { parseAccountState } from '../../core/accounts/account.types.js';
import type { RouteModule } from '../http-deps.js';
import { caller, query } from '../request-context.js';

interface AccountBody {
  login: string;
  state: string;
  admin: boolean;
  password?: string | null;
  email?: string | null;
}

export const accountRoutes: RouteModule = (api, { accounts, config }) => {
  api.route('get', '/api/v2/admin/account', async (_req, res) => {
    const q = (query(res)['q'] as string | undefined) ?? '';
    res.json({ items: await accounts.list(q, config.maxPageSize) });
  });

  api.route('post', '/api/v2/admin/account', async (req, res) => {
    const b = req.body as AccountBody;
    res.json(
      await accounts.create({
        login: b.login,
        state: parseAccountState(b.state) ?? 'Active',
        admin: b.admin,
        password: b.password ?? '',
        email: optionalEmail(b.email),
      }),
    );
  });

  api.route('get', '/api/v2/admin/account/{id}', async (req, res) => {
    res.json(await accounts.get(String(req.params['id'])));
  });

  api.route('post', '/api/v2/admin/account/{id}', async (req, res) => {
    const b = req.body as AccountBody;
    res.json(
      await accounts.modify(caller(res).accountId, String(req.params['id']), {
        state: parseAccountState(b.state) ?? 'Active',
        admin: b.admin,
        email: optionalEmail(b.email),
        password: b.password || null,
      }),
    );
  });

  api.route('delete', '/api/v2/admin/account/{id}', async (req, res) => {
    res.json(await accounts.remove(caller(res).accountId, String(req.params['id'])));
  });
};
