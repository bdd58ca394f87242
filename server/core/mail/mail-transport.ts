/**
 * How mail leaves Pier: a small interface, so the mail service does not know
 * about SMTP; the nodemailer implementation is `smtp-transport.ts`, wired in
 * the composition root.
 */

export interface MailAddress {
  /** display name, or null */
  name: string | null;
  address: string;
}

export interface OutgoingMail {
  /** an address, or a configured `From` text such as `Pier <pier@example.org>` */
  from: MailAddress | string;
  to: string[];
  replyTo: string | null;
  subject: string;
  /** plain text */
  text: string;
  /** `List-Id` header value, or null for none */
  listId: string | null;
}

export interface SendReport {
  accepted: string[];
  /** recipients the server refused while others were accepted */
  rejected: string[];
}

export interface MailTransport {
  /** Sends one message; rejects when nothing could be delivered to the server (down, timeout, every recipient refused). */
  send(mail: OutgoingMail): Promise<SendReport>;
  /** Releases connections, if any. */
  close(): void;
}
