/**
 * E-mail: the rendered templates the web client offers for editing, sending
 * a mail written by a signed-in user, and the notification of an alias' owner
 * and members when a guest uploaded files. Sending goes through the
 * `MailTransport` of the composition root. A failed delivery is a
 * `{success:false}` result and an error in the log, never an exception.
 * How much mail accounts and guests can make Pier send is bounded by
 * `mail-limits.ts`.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { badRequest, notFound } from '../../common/errors.js';
import { isEmail } from '../../common/email.js';
import type { Logger } from '../../common/log.js';
import { fail, ok, type BasicResult, type ResultCode } from '../../common/result.js';
import type { Config } from '../../config/types.js';
import type { Database } from '../../db/schema.js';
import { findAccountEmail } from '../accounts/account.repository.js';
import { aliasRecipients, findAlias, isMember } from '../aliases/alias.repository.js';
import type { Accessor } from '../shares/accessor.js';
import { requireShareAccess } from '../shares/share-access.js';
import { findPublishOfShare } from '../shares/publish.repository.js';
import { findShare } from '../shares/share.repository.js';
import { claimDownloadMail } from '../activity/activity.repository.js';
import { findAccountById } from '../accounts/account.repository.js';
import { MAX_RECIPIENTS, releaseAccountMail, releaseGuestNotification, reserveAccountMail, reserveGuestNotification, type NotificationRefusal } from './mail-limits.js';
import type { MailAddress, MailTransport, OutgoingMail } from './mail-transport.js';
import { renderTemplate } from './templates.js';

export interface MailServiceDeps {
  db: Kysely<Database>;
  transport: MailTransport;
  settings: Config['backend']['mail'];
  /** mails per account and hour, guest notifications per alias and hour */
  limits: Pick<Config['limits'], 'mailsPerAccountPerHour' | 'aliasMailsPerHour'>;
  clock: Clock;
  log: Logger;
}

export interface MailText {
  subject: string;
  body: string;
}

export interface SimpleMail {
  recipients: string[];
  subject: string;
  body: string;
}

/** A signed-in user. */
export interface MailCaller {
  accountId: string;
  login: string;
}

export interface MailService {
  shareTemplate(c: MailCaller, shareId: string, baseUrl: string): Promise<MailText>;
  aliasTemplate(c: MailCaller, aliasId: string, baseUrl: string): Promise<MailText>;
  send(c: MailCaller, mail: SimpleMail): Promise<BasicResult>;
  notifyUpload(guest: Accessor & { kind: 'alias' }, shareId: string, baseUrl: string): Promise<BasicResult>;
  /**
   * The server, after a complete download of a share whose owner asked for it
   * (`notifyOnDownload`): one mail to the owner with the `download-notify`
   * template, at most one per share and hour; nothing when mail is disabled or
   * the owner has no address. Never throws; failures are logged.
   */
  notifyDownload(shareId: string, baseUrl: string, what: string): Promise<void>;
}

const NO_SENDER = 'There are no sender addresses specified. You may need to add an e-mail address to your account.';

const SKIPPED: Record<NotificationRefusal, [ResultCode, string]> = {
  'already-notified': ['mail.already-notified', 'The owner was already notified about this share; no mail sent.'],
  'alias-limit': ['mail.alias-limit', 'This upload link has sent too many notifications in the last hour; no mail sent.'],
};

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();

export const createMailService = (d: MailServiceDeps): MailService => {
  const { db, settings, limits } = d;
  const { smtp, templates } = settings;
  const listId = smtp.listId || null;

  const accountEmail = (accountId: string): Promise<string | null> => findAccountEmail(db, accountId);

  const HOUR = 3_600_000;

  return {
    async notifyDownload(shareId, baseUrl, what) {
      try {
        if (!settings.enabled) return;
        const share = await findShare(db, shareId);
        if (!share) return;
        const owner = await findAccountById(db, share.accountId);
        const to = owner?.email;
        if (!owner || !to || !isEmail(to)) return;
        const now = d.clock.now();
        if (!(await claimDownloadMail(db, shareId, now - HOUR, now))) return;
        const text = renderTemplate(templates.downloadNotify, {
          user: owner.login,
          url: `${baseUrl}/app/upload/${encodeURIComponent(shareId)}`,
          shareName: share.name ?? '',
          what,
        });
        await d.transport.send({ from: smtp.defaultFrom || to, to: [to], replyTo: null, subject: text.subject, text: text.body, listId });
      } catch (e) {
        d.log.error('Sending the download notification failed', { shareId, error: reason(e) });
      }
    },

    /**
     * Signed-in users with access to the share (owner, alias member): the
     * `download` template for its public link; `not-found` unless the share
     * is accessible and has been published at least once.
     */
    async shareTemplate(c, shareId, baseUrl) {
      await requireShareAccess(db, { kind: 'user', accountId: c.accountId, login: c.login, admin: false }, shareId);
      const [share, publish] = await Promise.all([findShare(db, shareId), findPublishOfShare(db, shareId)]);
      if (!share || !publish) throw notFound('The published share');
      return renderTemplate(templates.download, {
        user: c.login,
        url: `${baseUrl}/app/open/${encodeURIComponent(publish.id)}`,
        password: share.passwordHash !== null,
      });
    },

    /** Owner and members of the alias: the `alias` template for its guest page; `not-found` otherwise. */
    async aliasTemplate(c, aliasId, baseUrl) {
      const alias = await findAlias(db, aliasId);
      if (!alias || (alias.ownerId !== c.accountId && !(await isMember(db, aliasId, c.accountId)))) throw notFound('The alias');
      return renderTemplate(templates.alias, { user: c.login, url: `${baseUrl}/app/share/${encodeURIComponent(aliasId)}` });
    },

    /**
     * Signed-in users: sends a plain-text mail from `default-from`, or else
     * from the caller's address (their login as the name). Every recipient
     * must be an e-mail address, and there may be at most `MAX_RECIPIENTS`
     * and no more than the hourly allowance (`bad-request` naming the field).
     * Beyond the account's recipients per hour: `rate-limited`, nothing sent.
     * With an allowance of 0 it is as if mail were disabled.
     */
    async send(c, mail) {
      const recipients = mail.recipients.map((r) => r.trim()).filter((r) => r !== '');
      const bad = recipients.filter((r) => !isEmail(r));
      if (bad.length) throw badRequest('recipients', `Invalid value for 'recipients': ${bad.map((b) => `'${b}'`).join(', ')} is not an e-mail address.`);
      if (!settings.enabled || limits.mailsPerAccountPerHour === 0) return fail('mail.disabled', 'The mail feature is disabled');
      const most = Math.min(MAX_RECIPIENTS, limits.mailsPerAccountPerHour);
      if (recipients.length > most) throw badRequest('recipients', `Invalid value for 'recipients': a mail may go to at most ${most} recipients.`);
      if (!recipients.length) return fail('mail.no-recipients', 'There are no recipients');
      const own = await accountEmail(c.accountId);
      const from: MailAddress | string | null = smtp.defaultFrom || (own ? { name: c.login, address: own } : null);
      if (!from) return fail('mail.no-sender', NO_SENDER);
      const reserved = await reserveAccountMail(db, c.accountId, recipients.length, limits.mailsPerAccountPerHour, d.clock.now());
      const message: OutgoingMail = {
        from,
        to: recipients,
        replyTo: smtp.defaultFrom ? own : null,
        subject: mail.subject,
        text: mail.body,
        listId,
      };
      try {
        const report = await d.transport.send(message);
        if (report.rejected.length) {
          d.log.warn('The mail server refused some recipients', { account: c.login, rejected: report.rejected });
          return ok('mail.partly-sent', `Mail successfully sent, but these recipients were refused: ${report.rejected.join(', ')}`);
        }
        return ok('mail.sent', 'Mail successfully sent.');
      } catch (e) {
        d.log.error('Sending a mail failed', { account: c.login, recipients: recipients.length, error: reason(e) });
        // a mail that reached nobody does not count
        await releaseAccountMail(db, reserved);
        return fail('mail.failed', `Mail sending failed: ${reason(e)}`);
      }
    },

    /**
     * Guests, for a share of their alias (`not-found` otherwise): tells the
     * alias' owner and members that have an e-mail address, one mail each
     * with the `upload-notify` template and a link to the share's page.
     * Once per share, and at most `alias-mails-per-hour` times per alias;
     * beyond that nothing is sent and the skip is logged. Failures are
     * results (and logged); the upload itself is untouched.
     */
    async notifyUpload(guest, shareId, baseUrl) {
      await requireShareAccess(db, guest, shareId);
      if (!settings.enabled) return fail('mail.disabled', 'Mail feature is disabled.');
      const recipients = (await aliasRecipients(db, guest.aliasId)).filter((r) => r.email && isEmail(r.email));
      if (!recipients.length) return fail('mail.no-recipients', 'There is no email to notify');
      const refused = await reserveGuestNotification(db, guest.aliasId, shareId, limits.aliasMailsPerHour, d.clock.now());
      if (refused) {
        const fields = { shareId, aliasId: guest.aliasId, reason: refused };
        // a repeated call for one share is ordinary (a guest page that adds files); a full hour is worth a warning
        if (refused === 'alias-limit') d.log.warn('Upload notification skipped', fields);
        else d.log.info('Upload notification skipped', fields);
        return fail(...SKIPPED[refused]);
      }
      const ownerEmail = recipients.find((r) => r.owner)?.email ?? (await accountEmail(guest.ownerId));
      const url = `${baseUrl}/app/upload/${encodeURIComponent(shareId)}`;
      let failed = 0;
      for (const r of recipients) {
        const text = renderTemplate(templates.uploadNotify, { user: r.login, url, aliasName: guest.aliasName });
        try {
          await d.transport.send({
            from: smtp.defaultFrom || ownerEmail || r.email!,
            to: [r.email!],
            replyTo: null,
            subject: text.subject,
            text: text.body,
            listId,
          });
        } catch (e) {
          failed++;
          d.log.error('Sending the upload notification failed', { shareId, aliasId: guest.aliasId, recipient: r.login, error: reason(e) });
        }
      }
      if (failed === 0) return ok('mail.sent', 'Mail sent');
      if (failed === recipients.length) {
        await releaseGuestNotification(db, shareId);
        return fail('mail.failed', `Sending failed to all recipients (${failed})`);
      }
      return ok('mail.partly-sent', `Sending succeeded for ${recipients.length - failed}, but failed for ${failed} recipients`);
    },
  };
};
