import type { RequestHandler } from 'express';
import type { RouteModule } from '../http-deps.js';
import { requireAdmin, requireUser } from '../zones.js';

export const signupRoutes: RouteModule = (api, { signup, auth, origin }) => {
  api.route('post', '/api/v2/open/signup/register', async (req, res) => {
    const body = req.body as { login: string; password: string; invite?: string | null };
    res.json(await signup.register({ login: body.login, password: body.password, invite: body.invite ?? null }, origin.clientAddress(req)));
  });

  const newInvite: RequestHandler = async (req, res) => {
    res.json(await signup.newInvite((req.body as { password: string }).password));
  };
  // Under /admin the zone checks the token; the /open paths check it themselves.
  api.route('post', '/api/v2/admin/signup/newinvite', newInvite);
  api.route('post', '/api/v2/open/signup/newinvite', requireUser(auth), requireAdmin, newInvite);
  api.route('post', '/api/v1/open/signup/newinvite', requireUser(auth), requireAdmin, newInvite);
};
