import type { Request } from 'express';
import type { SimpleMail } from '../../core/mail/mail.service.js';
import type { RouteModule } from '../http-deps.js';
import { caller } from '../request-context.js';

/** `/sec/mail`: rendered templates for the web client's mail dialog, and sending. */
export const mailRoutes: RouteModule = (api, { mail, links }) => {
  const baseUrl = (req: Request) => links.baseUrl(req);

  api.route('get', '/api/v2/sec/mail/template/share/{id}', async (req, res) => {
    res.json(await mail.shareTemplate(caller(res), String(req.params['id']), baseUrl(req)));
  });

  api.route('get', '/api/v2/sec/mail/template/alias/{aid}', async (req, res) => {
    res.json(await mail.aliasTemplate(caller(res), String(req.params['aid']), baseUrl(req)));
  });

  api.route('post', '/api/v2/sec/mail/send', async (req, res) => {
    const b = req.body as SimpleMail;
    res.json(await mail.send(caller(res), { recipients: b.recipients, subject: b.subject, body: b.body }));
  });
};
