import { describe, expect, it } from 'vitest';
import { buildTrayMenu, stateLabel, toMenuTemplate, trayClickOpensWindow, type TrayAction, type TrayItem, type TrayState } from '../../../main/tray-menu.js';

const base: TrayState = {
  server: { kind: 'running', port: 9090, localUrl: 'http://127.0.0.1:9090' },
  addresses: [
    { name: 'localhost', url: 'http://127.0.0.1:9090' },
    { name: 'eth0', url: 'http://192.168.1.20:9090' },
    { name: 'wlan0', url: 'http://10.0.0.5:9090' },
  ],
  lan: true,
  hasAccount: true,
  needsSetup: false,
  aliases: [
    { id: 'abc', name: 'Holiday photos', enabled: true },
    { id: 'old', name: 'Old', enabled: false },
  ],
  playerEnabled: true,
};

/** Labels with their enabled flag (`-` for a disabled item), submenus indented. */
const outline = (items: TrayItem[], indent = ''): string[] =>
  items.flatMap((i) => {
    if (i.kind === 'separator') return [`${indent}---`];
    if (i.kind === 'label') return [`${indent}- ${i.label}`];
    const line = `${indent}${i.enabled ? '' : '- '}${i.kind === 'check' ? `[${i.checked ? 'x' : ' '}] ` : ''}${i.label}`;
    return i.kind === 'submenu' ? [line, ...outline(i.items, `${indent}  `)] : [line];
  });

const find = (items: TrayItem[], label: string): TrayItem | undefined => {
  for (const i of items) {
    if ('label' in i && i.label === label) return i;
    if (i.kind === 'submenu') {
      const f = find(i.items, label);
      if (f) return f;
    }
  }
  return undefined;
};
const actionOf = (items: TrayItem[], label: string): TrayAction | undefined => {
  const i = find(items, label);
  return i && 'action' in i ? i.action : undefined;
};

describe('tray menu', () => {
  it('running: state, every address, LAN link and QR, upload links, start/stop', () => {
    const items = buildTrayMenu(base);
    expect(outline(items)).toEqual([
      '- Pier is running',
      '- This computer: http://127.0.0.1:9090',
      '- eth0: http://192.168.1.20:9090',
      '- wlan0: http://10.0.0.5:9090',
      'Copy LAN link',
      'Show QR code for phones…',
      '---',
      'Open Pier',
      'Share files…',
      'Upload links',
      '  Holiday photos',
      '    Copy link',
      '    Show QR code…',
      '  Old (disabled)',
      '    Copy link',
      '    Show QR code…',
      '  ---',
      '  New upload link…',
      'Accounts…',
      'Player',
      '  Open player',
      '  Invite the room…',
      'Open received files',
      '---',
      'Stop server',
      '[x] Reachable on the network (LAN)',
      'Settings…',
      '---',
      'Quit Pier',
    ]);
    expect(actionOf(items, 'Copy LAN link')).toEqual({ type: 'copy', text: 'http://192.168.1.20:9090/app' });
    expect(actionOf(items, 'Show QR code for phones…')).toEqual({ type: 'show-qr', title: 'Pier on your network', url: 'http://192.168.1.20:9090/app' });
    expect(actionOf(items, 'Copy link')).toEqual({ type: 'copy', text: 'http://192.168.1.20:9090/app/share/abc' });
    expect(actionOf(items, 'Accounts…')).toEqual({ type: 'open-app', path: '/app/account' });
    expect(actionOf(items, 'Settings…')).toEqual({ type: 'open-app', path: '/app/desktop' });
    expect(actionOf(items, 'Open player')).toEqual({ type: 'open-app', path: '/app/player' });
    expect(actionOf(items, 'Invite the room…')).toEqual({ type: 'invite-room' });
    expect(actionOf(items, 'Reachable on the network (LAN)')).toEqual({ type: 'set-lan', lan: false });
  });

  it('running on this computer only: no LAN link, links use the local address', () => {
    const items = buildTrayMenu({ ...base, lan: false, addresses: [base.addresses[0]!], playerEnabled: false });
    const lines = outline(items);
    expect(lines).toContain('- Reachable from this computer only');
    expect(lines).not.toContain('Copy LAN link');
    expect(lines).not.toContain('Player');
    expect(lines).toContain('[ ] Reachable on the network (LAN)');
    expect(actionOf(items, 'Copy link')).toEqual({ type: 'copy', text: 'http://127.0.0.1:9090/app/share/abc' });
    expect(outline(buildTrayMenu({ ...base, addresses: [base.addresses[0]!] }))).toContain('- No network connection found');
  });

  it('stopped: the app items are disabled, start and the settings file are offered', () => {
    const lines = outline(buildTrayMenu({ ...base, server: { kind: 'stopped' }, addresses: [], aliases: null }));
    expect(lines.slice(0, 2)).toEqual(['- Pier is stopped', '---']);
    expect(lines).toEqual(expect.arrayContaining(['- Open Pier', '- Share files…', '- Upload links', '  - Start Pier to see upload links', '- Accounts…', 'Start server', 'Settings file…', 'Quit Pier']));
    expect(lines).not.toContain('Stop server');
  });

  it('error: the reason is shown (shortened when long) and "Try again" starts', () => {
    const items = buildTrayMenu({ ...base, server: { kind: 'error', reason: 'Port 9090 is already in use by another program.' }, addresses: [], aliases: null });
    expect(outline(items)[0]).toBe('- Pier could not start: Port 9090 is already in use by another program.');
    expect(actionOf(items, 'Try again')).toEqual({ type: 'start' });
    const long = stateLabel({ kind: 'error', reason: 'x'.repeat(500) });
    expect(long.length).toBeLessThan(160);
    expect(long.endsWith('…')).toBe(true);
  });

  it('restarting after a crash: the reason is shown, start waits', () => {
    const lines = outline(buildTrayMenu({ ...base, server: { kind: 'restarting', reason: 'The server stopped unexpectedly (killed by SIGSEGV)' }, addresses: [], aliases: null }));
    expect(lines).toEqual(expect.arrayContaining(['- Pier is restarting: The server stopped unexpectedly (killed by SIGSEGV)', '- Starting…', '- [x] Reachable on the network (LAN)']));
  });

  it('a first start whose window was closed can be taken up again from the tray', () => {
    const items = buildTrayMenu({ ...base, server: { kind: 'stopped' }, hasAccount: false, needsSetup: true, addresses: [], aliases: null });
    expect(actionOf(items, 'Finish setting up Pier…')).toEqual({ type: 'show-setup' });
    expect(find(buildTrayMenu(base), 'Finish setting up Pier…')).toBeUndefined();
  });

  it('"Open Pier" shows the window as it is; a click on the icon opens it on Windows only', () => {
    expect(actionOf(buildTrayMenu(base), 'Open Pier')).toEqual({ type: 'open-app' });
    // macOS emits click when the icon is clicked to open its menu; Linux shows the menu only
    expect(['win32', 'darwin', 'linux'].map((p) => trayClickOpensWindow(p as NodeJS.Platform))).toEqual([true, false, false]);
  });

  it('starting: start is disabled and the LAN switch waits', () => {
    const lines = outline(buildTrayMenu({ ...base, server: { kind: 'starting' }, addresses: [], aliases: null }));
    expect(lines).toEqual(expect.arrayContaining(['- Pier is starting…', '- Starting…', '- [x] Reachable on the network (LAN)']));
  });

  it('before the first start is done: sharing and upload links are disabled', () => {
    const lines = outline(buildTrayMenu({ ...base, hasAccount: false, aliases: null }));
    expect(lines).toEqual(expect.arrayContaining(['- Share files…', '- Upload links', '  - Upload links could not be loaded', '  - New upload link…']));
    expect(outline(buildTrayMenu({ ...base, aliases: [] }))).toContain('  - No upload links yet');
  });

  it('becomes an Electron template whose clicks dispatch the item’s action', () => {
    const seen: TrayAction[] = [];
    const template = toMenuTemplate(buildTrayMenu(base), (a) => seen.push(a));
    const quit = template.find((t) => t.label === 'Quit Pier')!;
    (quit.click as () => void)();
    const lan = template.find((t) => t.label === 'Reachable on the network (LAN)')!;
    expect(lan).toMatchObject({ type: 'checkbox', checked: true });
    const links = template.find((t) => t.label === 'Upload links')!.submenu as { label?: string; submenu?: unknown }[];
    expect(links.map((l) => l.label)).toEqual(['Holiday photos', 'Old (disabled)', undefined, 'New upload link…']);
    expect(template[0]).toEqual({ label: 'Pier is running', enabled: false });
    expect(seen).toEqual([{ type: 'quit' }]);
  });
});
