/**
 * A real SMTP server on loopback for the mail tests (npm `smtp-server`), with
 * every received message parsed back (`mailparser`): plain, STARTTLS or
 * implicit TLS with a self-signed certificate made by the openssl CLI,
 * optional authentication, recipients it refuses. Also a "server" that
 * accepts connections and never greets, for timeouts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  /** SMTP envelope */
  from: string;
  to: string[];
  /** whether the session was encrypted when the message came */
  secure: boolean;
  /** the authenticated user, if any */
  user: string | null;
  parsed: ParsedMail;
}

export interface SmtpOptions {
  /** `none`: no TLS offered; `starttls`: offered after EHLO; `implicit`: TLS from the first byte */
  tls?: 'none' | 'starttls' | 'implicit';
  /** require AUTH with this user and password */
  auth?: { user: string; password: string };
  /** recipients refused with 550 */
  refuse?: string[];
}

export interface SmtpCapture {
  port: number;
  mails: CapturedMail[];
  /** resolves once `n` messages arrived (fails after `timeoutMs`) */
  waitFor(n: number, timeoutMs?: number): Promise<CapturedMail[]>;
  stop(): Promise<void>;
}

export interface Certificate {
  key: Buffer;
  cert: Buffer;
}

/** A self-signed certificate for `localhost` and 127.0.0.1 (openssl CLI). */
export const selfSignedCertificate = (): Certificate => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

let sharedCert: Certificate | undefined;
const certificate = (): Certificate => (sharedCert ??= selfSignedCertificate());

export const startSmtp = async (opts: SmtpOptions = {}): Promise<SmtpCapture> => {
  const tls = opts.tls ?? 'none';
  const refuse = new Set((opts.refuse ?? []).map((a) => a.toLowerCase()));
  const mails: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    secure: tls === 'implicit',
    ...(tls === 'none' ? {} : certificate()),
    disabledCommands: [...(tls === 'none' ? ['STARTTLS'] : []), ...(opts.auth ? [] : ['AUTH'])],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.password) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (refuse.has(address.address.toLowerCase())) {
        const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        cb(err);
      } else cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : null,
            parsed,
          });
          for (const w of waiters.splice(0)) w();
          cb();
        })
        .catch((e: Error) => cb(e));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    async waitFor(n, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return mails;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
export const startSilentServer = async (): Promise<{ port: number; stop(): Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

/** A free port with nothing listening (an SMTP server that is down). */
export const closedPort = async (): Promise<number> => {
  const s = createTcpServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
};

/** `backend.mail` for a test server talking to `port` (HOCON key names). */
export const mailConfig = (port: number, smtp: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  smtp: {
    host: '127.0.0.1',
    port,
    'ssl-type': 'none',
    timeout: '3 seconds',
    'default-from': '',
    'list-id': 'pier-test',
    ...smtp,
  },
  ...extra,
});
