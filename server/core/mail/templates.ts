/**
 * The mail templates of `backend.mail.templates` (`download`, `alias`,
 * `upload-notify`, `download-notify`), each a mustache subject and body. Mails are plain text,
 * so values are inserted as they are (no HTML escaping): `{{user}}` and
 * `{{{user}}}` give the same text.
 */
import Mustache from 'mustache';
import type { MailTemplate } from '../../config/types.js';

export interface TemplateVars {
  /** the login of the sender (download, alias) or of the recipient (upload-notify) */
  user: string;
  url: string;
  /** download: whether the share has a password (a section) */
  password?: boolean;
  /** upload-notify: the alias name */
  aliasName?: string;
  /** download-notify: the share's name and what was downloaded (`photo.jpg`, `the ZIP`) */
  shareName?: string;
  what?: string;
}

const plain = { escape: (v: unknown) => String(v) };

/** Renders a template's subject and body. */
export const renderTemplate = (t: MailTemplate, vars: TemplateVars): { subject: string; body: string } => ({
  // a subject is one header line
  subject: Mustache.render(t.subject, vars, {}, plain).replace(/[\r\n]+/g, ' ').trim(),
  body: Mustache.render(t.body, vars, {}, plain),
});
