import { describe, expect, it } from 'vitest';
import {
  applyPatch,
  createSettings,
  defaultSettings,
  editable,
  memorySettingsStore,
  migrateSettings,
  needsRestart,
  pageSettings,
  SETTINGS_VERSION,
  validateEditable,
  type DesktopSettings,
} from '../../../main/desktop-settings.js';
import { STORED_PASSWORD } from '../../../preload/desktop-api.js';

const valid = (): DesktopSettings => ({ ...defaultSettings(), receivedFolder: '/home/u/Received' });

describe('desktop settings: defaults', () => {
  it('listen on the LAN, close sign-up and keep the player for signed-in users', () => {
    const d = defaultSettings();
    expect(d).toMatchObject({ lan: true, signupMode: 'closed', playerAccess: 'user', port: 9090, account: null, version: SETTINGS_VERSION });
    expect(d.mail.enabled).toBe(false);
  });

  it('give every install its own invite password, never a constant', () => {
    const a = defaultSettings().invitePassword;
    expect(a.length).toBeGreaterThanOrEqual(24);
    expect(defaultSettings().invitePassword).not.toBe(a);
    expect(a).not.toBe('generate-invite');
  });
});

describe('desktop settings: validation', () => {
  it('accepts the defaults with a folder', () => {
    expect(validateEditable(editable(valid()))).toEqual([]);
  });

  it('reports every problem at once, naming the field', () => {
    const bad = {
      ...editable(valid()),
      port: 70000,
      lan: 'yes',
      receivedFolder: 'relative/path',
      signupMode: 'everyone',
      playerAccess: 'root',
      mail: { ...valid().mail, enabled: true, host: ' ', sslType: 'tls' },
      playerConnections: [
        { id: 'default', title: 'A', host: 'h', port: 6600, password: '' },
        { id: 'default', title: 'B', host: '', port: 0, password: '' },
        { id: 'bad id', title: 'C', host: 'h', port: 6600, password: '', extra: 1 },
      ],
      extraConfigFile: 'x.conf',
    };
    const fields = validateEditable(bad).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'port',
        'lan',
        'receivedFolder',
        'signupMode',
        'playerAccess',
        'mail.sslType',
        'mail.host',
        'playerConnections.1.id',
        'playerConnections.1.host',
        'playerConnections.1.port',
        'playerConnections.2.id',
        'playerConnections.2.extra',
        'extraConfigFile',
      ]),
    );
  });

  it('refuses multi-line text (it ends up in a configuration file)', () => {
    const e = validateEditable({ ...editable(valid()), mail: { ...valid().mail, user: 'a\nservice.restserver.x = 1' } });
    expect(e).toEqual([{ field: 'mail.user', message: 'must be a single line' }]);
  });

  it('applies a valid patch and refuses a bad one without changing anything', () => {
    const current = valid();
    const ok = applyPatch(current, { port: 8080, lan: false });
    expect(ok.ok && ok.settings.port).toBe(8080);
    expect(ok.ok && ok.settings.invitePassword).toBe(current.invitePassword);

    expect(applyPatch(current, { port: 8080, signupMode: 'x' })).toEqual({ ok: false, errors: [{ field: 'signupMode', message: 'must be one of open, invite, closed' }] });
    expect(applyPatch(current, { account: { id: 'x', login: 'evil' } })).toEqual({ ok: false, errors: [{ field: 'account', message: 'is not a setting' }] });
    expect(applyPatch(current, { invitePassword: 'known' })).toMatchObject({ ok: false });
    expect(applyPatch(current, 'port=1')).toMatchObject({ ok: false });
  });

  it('tells which changes need a server restart', () => {
    const a = valid();
    expect(needsRestart(a, { ...a, notifications: false, startAtLogin: true })).toBe(false);
    expect(needsRestart(a, { ...a, port: 1234 })).toBe(true);
    expect(needsRestart(a, { ...a, mail: { ...a.mail, host: 'smtp' } })).toBe(true);
    expect(needsRestart(a, { ...a, account: { id: 'i', login: 'l' } })).toBe(false);
  });
});

describe('desktop settings: migration', () => {
  it('starts from the defaults when nothing or garbage was stored', () => {
    expect(migrateSettings(undefined).repaired).toEqual([]);
    expect(migrateSettings('{"port":').settings.port).toBe(9090);
    expect(migrateSettings([1, 2]).repaired).toEqual(['(all settings)']);
  });

  it('keeps valid stored values, resets invalid ones to the default and reports them, drops unknown keys', () => {
    const stored = { version: 1, port: 8081, lan: 'maybe', signupMode: 'invite', shoeSize: 44, invitePassword: 'short', account: { id: 'a1', login: 'me' } };
    const { settings, repaired } = migrateSettings(stored);
    expect(settings.port).toBe(8081);
    expect(settings.signupMode).toBe('invite');
    expect(settings.lan).toBe(true);
    expect(settings.account).toEqual({ id: 'a1', login: 'me' });
    expect(settings.invitePassword).not.toBe('short');
    expect(repaired).toEqual(['lan', 'invitePassword']);
    expect(settings).not.toHaveProperty('shoeSize');
    expect(validateEditable(editable(settings)).filter((e) => e.field !== 'receivedFolder')).toEqual([]);
  });

  it('runs the steps from the stored version up to the current one, in order', () => {
    const steps = {
      0: (r: Record<string, unknown>) => ({ ...r, lan: r['listenOnLan'] === true, trail: ['0'] }),
      1: (r: Record<string, unknown>) => ({ ...r, port: Number(r['httpPort']), trail: [...((r['trail'] as string[] | undefined) ?? []), '1'] }),
    };
    const fromV0 = migrateSettings({ listenOnLan: false, httpPort: '7000' }, steps, 2);
    expect(fromV0.settings).toMatchObject({ lan: false, port: 7000, version: 2 });
    const fromV1 = migrateSettings({ version: 1, lan: false, httpPort: 7001 }, steps, 2);
    expect(fromV1.settings).toMatchObject({ lan: false, port: 7001 });
  });

  it('a newer version is read without its unknown fields', () => {
    const { settings } = migrateSettings({ version: 99, port: 8082, newThing: true });
    expect(settings).toMatchObject({ port: 8082, version: SETTINGS_VERSION });
  });

  it('the service writes back what it migrated, and saves valid changes', () => {
    const store = memorySettingsStore({ port: 8083, lan: 3, receivedFolder: '/srv/in' });
    const warnings: string[] = [];
    const s = createSettings(store, (w) => warnings.push(w));
    expect(warnings.join()).toContain('lan');
    expect(store.value).toMatchObject({ version: SETTINGS_VERSION, port: 8083, lan: true });

    const seen: number[] = [];
    s.onChange((next, prev) => seen.push(prev.port, next.port));
    expect(s.update({ port: 0 })).toMatchObject({ success: true });
    expect(s.update({ port: -1 })).toMatchObject({ success: false, errors: [{ field: 'port' }] });
    expect(seen).toEqual([8083, 0]);
    expect(createSettings(store).get().port).toBe(0);
  });
});

// The settings page received the stored SMTP and music-player passwords in clear
// text, so any script in the page could read them. The page gets STORED_PASSWORD in
// their place; sending it back keeps the stored password, but only for the same
// server (otherwise a page could redirect the stored password to a host of its choice).
describe('desktop settings: stored passwords', () => {
  const withPasswords = (): DesktopSettings => ({
    ...valid(),
    mail: { enabled: true, host: 'smtp.example.org', port: 587, user: 'me', password: 'smtp-secret', sslType: 'starttls', defaultFrom: '' },
    playerConnections: [
      { id: 'default', title: 'Living room', host: '192.168.1.5', port: 6600, password: 'mpd-secret' },
      { id: 'kitchen', title: 'Kitchen', host: '192.168.1.6', port: 6600, password: '' },
    ],
  });

  it('never go back to the page, neither when read nor after a change', () => {
    const page = pageSettings(withPasswords());
    expect(page.mail.password).toBe(STORED_PASSWORD);
    expect(page.playerConnections.map((c) => c.password)).toEqual([STORED_PASSWORD, '']);
    const s = createSettings(memorySettingsStore(withPasswords()));
    const result = s.update({ port: 8080 });
    expect(result.success).toBe(true);
    expect(JSON.stringify(result)).not.toMatch(/smtp-secret|mpd-secret/);
  });

  it('are kept when the page sends the marker back, replaced by a new value, removed by an empty one', () => {
    const s = createSettings(memorySettingsStore(withPasswords()));
    const page = pageSettings(s.get());
    expect(s.update({ ...page, port: 8080 })).toMatchObject({ success: true });
    expect(s.get().mail.password).toBe('smtp-secret');
    expect(s.get().playerConnections[0]!.password).toBe('mpd-secret');
    expect(s.get().port).toBe(8080);

    expect(s.update({ mail: { ...page.mail, password: 'new-one' } })).toMatchObject({ success: true });
    expect(s.get().mail.password).toBe('new-one');
    expect(s.update({ playerConnections: [{ ...page.playerConnections[0]!, title: 'Lounge', port: 6601 }] })).toMatchObject({ success: true });
    expect(s.get().playerConnections).toEqual([{ id: 'default', title: 'Lounge', host: '192.168.1.5', port: 6601, password: 'mpd-secret' }]);
    expect(s.update({ mail: { ...page.mail, password: '' } })).toMatchObject({ success: true });
    expect(s.get().mail.password).toBe('');
  });

  it('are not kept for another server or a connection that did not have one, and nothing changes then', () => {
    const s = createSettings(memorySettingsStore(withPasswords()));
    const before = s.get();
    const page = pageSettings(before);
    const r = s.update({
      port: 8080,
      mail: { ...page.mail, host: 'smtp.evil.example' },
      playerConnections: [
        { ...page.playerConnections[0]!, host: 'evil.example' },
        { ...page.playerConnections[1]!, id: 'new', password: STORED_PASSWORD },
      ],
    });
    expect(r.success).toBe(false);
    expect(!r.success && r.errors.map((e) => e.field)).toEqual(['mail.password', 'playerConnections.0.password', 'playerConnections.1.password']);
    expect(s.get()).toEqual(before);
    // nor for the same mail host reached another way: without TLS, or on another port
    for (const change of [{ sslType: 'none' as const }, { port: 2525 }]) {
      const r2 = s.update({ mail: { ...page.mail, ...change } });
      expect(!r2.success && r2.errors.map((e) => e.field), JSON.stringify(change)).toEqual(['mail.password']);
    }
    expect(s.get()).toEqual(before);
    // the marker is never stored, not even when nothing was stored before
    expect(applyPatch(valid(), { mail: { ...valid().mail, password: STORED_PASSWORD } })).toMatchObject({ ok: false });
  });
});
