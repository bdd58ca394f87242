import { describe, expect, it } from 'vitest';
import { nodeFlagsOf, serverNodeFlags } from '../../../scripts/server-node-flags.mjs';

describe('the Node flags of the server process', () => {
  it('are the flags of the serve script, in order', () => {
    expect(nodeFlagsOf('node dist/server/cli.js')).toEqual([]);
    expect(nodeFlagsOf('node --max-semi-space-size=1 --stack-size=900 dist/server/cli.js')).toEqual(['--max-semi-space-size=1', '--stack-size=900']);
  });

  it('refuse a serve script of another shape instead of guessing', () => {
    for (const script of ['tsx server/cli.ts', 'node --inspect dist/server/cli.js', 'node --expose-gc dist/server/cli.js', 'node --x=1; rm -rf / dist/server/cli.js', 'node dist/server/cli.js --port=1']) {
      expect(() => nodeFlagsOf(script), script).toThrow(/must be `node/);
    }
  });

  it('of this project give the server a young generation of 1 MiB per semi-space and an old generation that grows to twice what it holds', () => {
    expect(serverNodeFlags()).toEqual(['--max-semi-space-size=1', '--heap-growing-percent=100']);
  });
});
