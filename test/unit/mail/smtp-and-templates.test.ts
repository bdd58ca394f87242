import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.js';
import type { Config } from '../../../server/config/types.js';
import { listIdHeader, smtpOptions, type SmtpSettings } from '../../../server/core/mail/smtp-transport.js';
import { renderTemplate } from '../../../server/core/mail/templates.js';

const dir = mkdtempSync(join(tmpdir(), 'pier-mail-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const defaults = async (): Promise<Config> => (await loadConfig({ defaults: { dataDir: dir } })).config;

const smtp = (over: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: 'mail.example.test',
  port: 587,
  user: '',
  password: '',
  sslType: 'starttls',
  checkCertificates: true,
  timeout: 10_000,
  defaultFrom: '',
  listId: 'Pier',
  ...over,
});

describe('SMTP settings → nodemailer options', () => {
  it('maps every ssl-type onto secure, requireTLS and ignoreTLS', () => {
    expect(smtpOptions(smtp({ sslType: 'none' }))).toMatchObject({ secure: false, requireTLS: false, ignoreTLS: true });
    expect(smtpOptions(smtp({ sslType: 'starttls' }))).toMatchObject({ secure: false, requireTLS: true, ignoreTLS: false });
    expect(smtpOptions(smtp({ sslType: 'ssl' }))).toMatchObject({ secure: true, requireTLS: false, ignoreTLS: false });
  });

  it('passes host, port, certificate checking and the timeout of every wait', () => {
    const o = smtpOptions(smtp({ checkCertificates: false, timeout: 1234 }));
    expect(o).toMatchObject({
      host: 'mail.example.test',
      port: 587,
      tls: { rejectUnauthorized: false },
      connectionTimeout: 1234,
      greetingTimeout: 1234,
      socketTimeout: 1234,
      dnsTimeout: 1234,
    });
    expect(smtpOptions(smtp()).tls).toEqual({ rejectUnauthorized: true });
  });

  it('authenticates only when a user is configured', () => {
    expect(smtpOptions(smtp()).auth).toBeUndefined();
    expect(smtpOptions(smtp({ user: 'pier', password: 'secret' })).auth).toEqual({ user: 'pier', pass: 'secret' });
  });

  it('puts the list id in angle brackets unless it has them', () => {
    expect(listIdHeader('Pier')).toBe('<Pier>');
    expect(listIdHeader('Pier files <pier.example.org>')).toBe('Pier files <pier.example.org>');
  });
});

describe('mail templates', () => {
  it('renders the default download template with and without the password section', async () => {
    const { download } = (await defaults()).backend.mail.templates;
    const withPw = renderTemplate(download, { user: 'alice', url: 'http://h/app/open/p1', password: true });
    expect(withPw.subject).toBe('Download ready.');
    expect(withPw.body).toContain('http://h/app/open/p1');
    expect(withPw.body).toContain('The required password will be sent by other means.');
    expect(withPw.body).toContain('alice via Pier');
    const without = renderTemplate(download, { user: 'alice', url: 'http://h/app/open/p1', password: false });
    expect(without.body).not.toContain('password');
  });

  it('renders the alias and upload-notify defaults with their variables', async () => {
    const { alias, uploadNotify } = (await defaults()).backend.mail.templates;
    const a = renderTemplate(alias, { user: 'alice', url: 'http://h/app/share/a1' });
    expect(a.subject).toBe('Link for Upload');
    expect(a.body).toContain('http://h/app/share/a1');
    const n = renderTemplate(uploadNotify, { user: 'bob', url: 'http://h/app/upload/s1', aliasName: "Tom & Jerry's <box>" });
    expect(n.subject).toBe('[Pier] Files arrived');
    expect(n.body).toContain('Hello bob,');
    // plain text: nothing is HTML-escaped
    expect(n.body).toContain("via the alias 'Tom & Jerry's <box>'.");
    expect(n.body).toContain('http://h/app/upload/s1');
  });

  it('keeps a rendered subject on one line', () => {
    const t = renderTemplate({ subject: 'Files from {{user}}\r\nBcc: x@example.test', body: '' }, { user: 'a\nb', url: '' });
    expect(t.subject).toBe('Files from a b Bcc: x@example.test');
  });
});
