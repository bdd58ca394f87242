// Regression: a share description was rendered on every view, synchronously, by
// mustache.js and markdown-it on the server. Nested `{{#files}}` sections cost
// files^depth (depth 12 over 5 files blocked every request for 21 s), a section
// could multiply 20000 characters into megabytes of markdown, and pathological
// markdown cost seconds per view; any user, or any guest through an alias, could
// plant one, and descriptions had no length limit. The server now only fills the
// mustache references, within a nesting depth, an output size and a number of
// render steps, once per change; descriptions longer than
// `limits.description-length` are refused with 400 on every route that sets one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTION_LIMITS } from '../../../server/core/shares/description-template.js';
import { createAlias, createUser, guest, type User } from '../aliases/support.js';
import { publish, shareWithFiles, type ShareDetailBody } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;
const LIMIT = 20_000; // the default of limits.description-length

interface Result {
  success: boolean;
  message: string;
  id?: string;
}

describe('share descriptions stay cheap whatever they contain', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer();
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  /** The slowest answer of `GET /open/info/version`, asked again and again while `work` runs. */
  const slowestAnswerDuring = async (work: Promise<unknown>): Promise<number> => {
    let done = false;
    const finished = work.finally(() => {
      done = true;
    });
    let slowest = 0;
    let probes = 0;
    while (!done || probes < 5) {
      const started = performance.now();
      const res = await fetch(`${s.url}/api/v2/open/info/version`);
      await res.text();
      expect(res.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
    }
    await finished;
    return slowest;
  };

  const files = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, content: `file ${i}` }));
  const nested = (depth: number, body: string) => '{{#files}}'.repeat(depth) + body + '{{/files}}'.repeat(depth);
  const worst: Record<string, string> = {
    'sections nested 12 deep': nested(12, '- {{name}} {{url}}\n'),
    'sections nested within the limit around 19 900 characters': nested(DESCRIPTION_LIMITS.depth, 'y'.repeat(LIMIT - 200)),
    'inner loops without output': nested(DESCRIPTION_LIMITS.depth, '{{#files}}{{/files}}{{^files}}{{/files}}{{nothing}}'.repeat(300)),
    'whole lists as variables': '{{files}}{{{file}}}{{filename}}'.repeat(600),
    'pathological markdown': '*[a'.repeat(LIMIT / 4) + '[['.repeat(LIMIT / 8),
    'pathological markdown repeated by a section': nested(1, '[['.repeat(LIMIT / 2 - 20)),
    'pathological markdown repeated by nested sections': nested(3, '[['.repeat(790)),
  };

  /**
   * A new share with `description`, viewed twice by its owner and twice publicly (the
   * first view of each renders), while the version is asked for again and again; the
   * slowest of those answers.
   */
  const slowestWhileViewing = async (description: string): Promise<number> => {
    const { id } = await shareWithFiles(s, token, files, { description, maxViews: 1000 });
    const pid = await publish(s, token, id);
    const paths = [`/api/v2/sec/share/${id}`, `/api/v2/open/share/${pid}`, `/api/v2/sec/share/${id}`, `/api/v2/open/share/${pid}`];
    const views = Promise.all(paths.map((p) => fetch(s.url + p, { headers: { 'Service-Auth': token } }).then(async (r) => ({ status: r.status, text: await r.text() }))));
    const slowest = await slowestAnswerDuring(views);
    for (const v of await views) {
      expect(v.status, v.text.slice(0, 200)).toBe(200);
      expect((JSON.parse(v.text) as ShareDetailBody).description!.length).toBeLessThanOrEqual(DESCRIPTION_LIMITS.output);
    }
    return slowest;
  };

  it.each(Object.entries(worst))('answers other requests within 100 ms while %s are viewed', async (_what, description) => {
    expect(description.length).toBeLessThanOrEqual(LIMIT);
    // The best of three tries, each on a new share: a server that blocks while it renders fails
    // every try; a test machine busy with other work seldom slows all three.
    let best = Infinity;
    for (let i = 0; i < 3 && best >= 100; i++) best = Math.min(best, await slowestWhileViewing(description));
    expect(best).toBeLessThan(100);
  }, 120_000);

  it('fills the references within the limits: too deep is left as written, too long is cut', async () => {
    const { id, list } = await shareWithFiles(s, token, files);
    const set = (value: string) => s.request<Result>('POST', `/api/v2/sec/share/${id}/description`, { value }, { token });
    const detail = async () => (await s.request<ShareDetailBody>('GET', `/api/v2/sec/share/${id}`, undefined, { token })).body;

    // the answer is markdown with the references filled in; the web client renders it
    expect((await set('**{{file.0.name}}** {{#files}}[{{name}}]({{url}}) {{/files}}')).body.success).toBe(true);
    const filled = (await detail()).description!;
    // inserted values have a backslash before each punctuation character, so a file name never becomes markup
    const escaped = (v: string) => v.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
    const url = (i: number) => escaped(`${s.url}/api/v2/sec/share/${id}/file/${list[i]!.id}`);
    expect(filled).toBe(`**f0\\.txt** ${list.map((f, i) => `[${escaped(f.filename)}](${url(i)}) `).join('')}`);

    const tooDeep = nested(DESCRIPTION_LIMITS.depth + 1, '{{name}}');
    await set(tooDeep);
    expect((await detail()).description).toBe(tooDeep);

    await set(nested(DESCRIPTION_LIMITS.depth, 'y'.repeat(LIMIT - 200)));
    const cut = (await detail()).description!;
    expect(cut.length).toBeLessThanOrEqual(DESCRIPTION_LIMITS.output);
    expect(cut.length).toBeGreaterThan(DESCRIPTION_LIMITS.output - LIMIT);
    expect(cut.endsWith('…')).toBe(true);

    // a change of the description or of the files shows at once
    await set('{{#files}}{{name}} {{/files}}');
    expect((await detail()).description).toBe('f0\\.txt f1\\.txt f2\\.txt f3\\.txt f4\\.txt ');
    expect((await s.request<Result>('DELETE', `/api/v2/sec/share/${id}/file/${list[0]!.id}`, undefined, { token })).body.success).toBe(true);
    expect((await detail()).description).toBe('f1\\.txt f2\\.txt f3\\.txt f4\\.txt ');
  });
});

describe('limits.description-length', () => {
  let s: TestServer;
  let owner: User;
  let aliasId: string;
  beforeAll(async () => {
    s = await startServer();
    owner = await createUser(s, 'dora');
    aliasId = await createAlias(s, owner);
  });
  afterAll(() => s.stop());

  const longest = 'd'.repeat(LIMIT);
  const tooLong = `${longest}d`;
  const props = (description: string) => ({ name: null, validity: DAY, maxViews: 10, password: null, description });

  const refused = (res: { status: number; body: Result }) => {
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain('description');
    expect(res.body.message).toContain(String(LIMIT));
  };

  const multipart = async (prefix: string, headers: Record<string, string>, description: string) => {
    const form = new FormData();
    form.append('meta', JSON.stringify(props(description)));
    form.append('file', new Blob(['x']), 'x.txt');
    const res = await fetch(`${s.url}${prefix}`, { method: 'POST', headers, body: form });
    return { status: res.status, body: (await res.json()) as Result };
  };

  it('refuses a longer description when a user creates a share, by JSON or multipart', async () => {
    const auth = { 'Service-Auth': owner.token };
    refused(await s.request<Result>('POST', '/api/v2/sec/upload/new', props(tooLong), { token: owner.token }));
    refused(await multipart('/api/v2/sec/upload', auth, tooLong));
    expect((await s.request<Result>('POST', '/api/v2/sec/upload/new', props(longest), { token: owner.token })).body.success).toBe(true);
    expect((await multipart('/api/v2/sec/upload', auth, longest)).body.success).toBe(true);
  });

  it('refuses a longer description when a guest creates a share through an alias, by JSON or multipart', async () => {
    refused(await s.request<Result>('POST', '/api/v2/alias/upload/new', props(tooLong), { headers: guest(aliasId) }));
    refused(await multipart('/api/v2/alias/upload', guest(aliasId), tooLong));
    expect((await s.request<Result>('POST', '/api/v2/alias/upload/new', props(longest), { headers: guest(aliasId) })).body.success).toBe(true);
    expect((await multipart('/api/v2/alias/upload', guest(aliasId), longest)).body.success).toBe(true);
  });

  it('refuses a longer description when the owner changes it, and keeps the old one', async () => {
    const created = await s.request<Result>('POST', '/api/v2/sec/upload/new', props('before'), { token: owner.token });
    const id = created.body.id!;
    const set = (value: string) => s.request<Result>('POST', `/api/v2/sec/share/${id}/description`, { value }, { token: owner.token });
    refused(await set(tooLong));
    expect((await s.request<ShareDetailBody>('GET', `/api/v2/sec/share/${id}`, undefined, { token: owner.token })).body.descriptionRaw).toBe('before');
    expect((await set(longest)).body).toEqual({ success: true, message: 'Description updated.', code: 'share.description-updated' });
  });
});
