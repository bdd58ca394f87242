// Calls of the mail routes (`/api/v2/sec/mail/...`): a link's mail template, and sending it.
import { apiFetch, apiResult, type BasicResult } from './http';
import type { MailTemplate } from './types';

/** The server's mail for the link of a share or of an upload link (alias). */
export const mailTemplate = (kind: 'share' | 'alias', id: string): Promise<MailTemplate> =>
  apiFetch<MailTemplate>(`/api/v2/sec/mail/template/${kind}/${encodeURIComponent(id)}`);

export const sendMail = (mail: { recipients: string[]; subject: string; body: string }): Promise<BasicResult> =>
  apiResult('/api/v2/sec/mail/send', { method: 'POST', body: mail });

/** Splits a recipients field at commas, semicolons and white space. */
export const splitRecipients = (text: string): string[] => text.split(/[\s,;]+/).filter(Boolean);
