// The service-unit example in docs/service.md repeats the server's Node flags and memory
// environment for a service manager; it must say what `npm run serve` passes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../../../server/process/flags.js';

const unit = /```ini\n([\s\S]*?)```/.exec(readFileSync('docs/service.md', 'utf8'))?.[1] ?? '';
const lines = (key: string): string[] => unit.split('\n').filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));

describe('the systemd unit of docs/service.md', () => {
  it('starts the built command line with the Node flags of npm run serve, in order', () => {
    const [exec, ...more] = lines('ExecStart');
    expect(more).toEqual([]);
    expect(exec!.split(' ').slice(1, 1 + SERVER_NODE_FLAGS.length + 1)).toEqual([...SERVER_NODE_FLAGS, 'dist/server/cli.js']);
  });

  it('sets the memory environment of npm run serve', () => {
    const set = lines('Environment').flatMap((l) => l.split(' '));
    expect(set).toEqual(expect.arrayContaining(Object.entries(SERVER_MEMORY_ENV).map(([k, v]) => `${k}=${v}`)));
  });
});
