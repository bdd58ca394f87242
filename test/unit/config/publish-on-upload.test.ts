import { describe, expect, it } from 'vitest';
import { hoconFile, load, loadErrors } from './helpers.js';

const K = 'service.restserver';
const sharryName = (value: boolean) =>
  `${K}.webapp.auto-publish-enabled: is Sharry's name for ${K}.webapp.publish-on-upload; its value (${value}) is used for that key, so rename it`;

describe('webapp.publish-on-upload', () => {
  it('is on by default, without a warning', async () => {
    const { config, warnings } = await load();
    expect(config.webapp.publishOnUpload).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('is turned off by the file or the environment', async () => {
    expect((await load({ file: hoconFile('webapp.publish-on-upload = false') })).config.webapp.publishOnUpload).toBe(false);
    const fromEnv = await load({ env: { SERVICE_WEBAPP_PUBLISH_ON_UPLOAD: 'off' } });
    expect(fromEnv.config.webapp.publishOnUpload).toBe(false);
    expect(fromEnv.warnings).toEqual([]);
  });
});

describe("Sharry's webapp.auto-publish-enabled", () => {
  it('set in a file decides publish-on-upload, with a warning naming the new key', async () => {
    const off = await load({ file: hoconFile('webapp.auto-publish-enabled = false') });
    expect(off.config.webapp.publishOnUpload).toBe(false);
    expect(off.warnings).toEqual([sharryName(false)]);
    const on = await load({ file: hoconFile('webapp { publish-on-upload = false, auto-publish-enabled = true }') });
    expect(on.config.webapp.publishOnUpload).toBe(true);
    expect(on.warnings).toEqual([sharryName(true)]);
  });

  it('set in the environment decides it too, over the file', async () => {
    const { config, warnings } = await load({
      file: hoconFile('webapp.publish-on-upload = true'),
      env: { SERVICE_WEBAPP_AUTO_PUBLISH_ENABLED: 'false' },
    });
    expect(config.webapp.publishOnUpload).toBe(false);
    expect(warnings).toEqual([sharryName(false)]);
  });

  it('null, as a generated file writes an unset key, leaves publish-on-upload alone', async () => {
    const { config, warnings } = await load({ file: hoconFile('webapp.auto-publish-enabled = null') });
    expect(config.webapp.publishOnUpload).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('refuses a value that is not a boolean', async () => {
    const e = await loadErrors({ env: { SERVICE_WEBAPP_AUTO_PUBLISH_ENABLED: 'sometimes' } });
    expect(e.errors).toEqual([`${K}.webapp.auto-publish-enabled: expected true or false, got "sometimes"`]);
  });
});
