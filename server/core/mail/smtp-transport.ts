/**
 * The SMTP mail transport (nodemailer) with every setting of
 * `backend.mail.smtp`: host, port, user and password, `ssl-type` (`none`:
 * plain, never upgraded; `starttls`: upgrade required; `ssl`: TLS from the
 * first byte), `check-certificates` and `timeout` (connecting, the greeting
 * and every later wait).
 */
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Config } from '../../config/types.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';

export type SmtpSettings = Config['backend']['mail']['smtp'];

/** The nodemailer options for the SMTP settings (pure, unit-tested). */
export const smtpOptions = (smtp: SmtpSettings): SMTPTransport.Options => ({
  host: smtp.host,
  port: smtp.port,
  secure: smtp.sslType === 'ssl',
  requireTLS: smtp.sslType === 'starttls',
  ignoreTLS: smtp.sslType === 'none',
  ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
  tls: { rejectUnauthorized: smtp.checkCertificates },
  connectionTimeout: smtp.timeout,
  greetingTimeout: smtp.timeout,
  socketTimeout: smtp.timeout,
  dnsTimeout: smtp.timeout,
});

/** `List-Id` wants `<id>`; a configured value that already has its brackets is kept. */
export const listIdHeader = (listId: string): string => (listId.includes('<') ? listId : `<${listId}>`);

const addressText = (a: unknown): string => (typeof a === 'string' ? a : ((a as { address?: string })?.address ?? String(a)));

/** nodemailer is loaded when the first mail is sent, not at start. */
export const createSmtpTransport = (smtp: SmtpSettings): MailTransport => {
  let transporter: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  const open = () => (transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpOptions(smtp))));
  return {
    async send(mail: OutgoingMail) {
      const info = await (await open()).sendMail({
        from: typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? '', address: mail.from.address },
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        ...(mail.listId ? { headers: { 'List-Id': listIdHeader(mail.listId) } } : {}),
      });
      return { accepted: info.accepted.map(addressText), rejected: info.rejected.map(addressText) };
    },
    close: () => void transporter?.then((t) => t.close()),
  };
};
