import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has the defaults of SPEC B4', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.DATA_DIR).toBe('./data');
    expect(c.MAX_UPLOAD_MB).toBe(25);
    expect(c.DEMO_DATA).toBe(true);
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('names every wrong variable', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', DEMO_DATA: 'maybe' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('PORT');
    expect(msg).toContain('DATABASE_URL');
    expect(msg).toContain('DEMO_DATA');
  });

  it("bounds the embedded database's queue by count and by time", () => {
    expect(loadConfig({})).toMatchObject({ PGLITE_QUEUE_LIMIT: 32, PGLITE_MAX_WAIT_MS: 250 });
    expect(loadConfig({ PGLITE_MAX_WAIT_MS: '1000' }).PGLITE_MAX_WAIT_MS).toBe(1000);
    expect(() => loadConfig({ PGLITE_MAX_WAIT_MS: '0' })).toThrow(/PGLITE_MAX_WAIT_MS/);
  });

  it('reads INBOUND_SMTP_PORT as a port, unset by default', () => {
    expect(loadConfig({}).INBOUND_SMTP_PORT).toBeUndefined();
    expect(loadConfig({ INBOUND_SMTP_PORT: '2525' }).INBOUND_SMTP_PORT).toBe(2525);
    for (const value of ['0', '70000', 'smtp', '25.5'])
      expect(() => loadConfig({ INBOUND_SMTP_PORT: value })).toThrow(/INBOUND_SMTP_PORT/);
    expect(loadConfig({}).INBOUND_SMTP_RATE).toBe(60);
    expect(loadConfig({ INBOUND_SMTP_RATE: '100000' }).INBOUND_SMTP_RATE).toBe(100000);
    expect(() => loadConfig({ INBOUND_SMTP_RATE: '0' })).toThrow(/INBOUND_SMTP_RATE/);
  });

  it('reads SLA_SWEEP_SECONDS as whole seconds from 1 to an hour, 30 by default', () => {
    expect(loadConfig({}).SLA_SWEEP_SECONDS).toBe(30);
    expect(loadConfig({ SLA_SWEEP_SECONDS: '1' }).SLA_SWEEP_SECONDS).toBe(1);
    for (const value of ['0', '3601', '0.5', 'often'])
      expect(() => loadConfig({ SLA_SWEEP_SECONDS: value })).toThrow(/SLA_SWEEP_SECONDS/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DEMO_DATA: 'false' })).toMatchObject({ PORT: 3000, DEMO_DATA: false });
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,2001:db8::/32,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      '2001:db8::/32',
      'loopback',
    ]);
  });

  it.each(['true', 'yes', '10.0.0.0/33', 'proxy.example', '11'])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  it.each(['0.0.0.0/0', '::/0', '10.0.0.0/8, 0.0.0.0/00'])('refuses TRUST_PROXY=%s in one line', (value) => {
    // Proxy matching refuses a /0 when the app is built: it must stop here, with a reason, not there.
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/trusts every X-Forwarded-For hop/);
  });

  it('says why TRUST_PROXY=true is refused', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/any client could choose its own address/);
  });

  it('reads FILE_STORE as an s3:// address and refuses anything else', () => {
    expect(loadConfig({}).FILE_STORE).toBeUndefined();
    expect(loadConfig({ FILE_STORE: 's3://my-bucket/sportello' }).FILE_STORE).toBe(
      's3://my-bucket/sportello',
    );
    expect(() => loadConfig({ FILE_STORE: '/srv/files' })).toThrow(/FILE_STORE/);
    expect(() => loadConfig({ FILE_STORE: 's3://Bad_Bucket' })).toThrow(/FILE_STORE/);
  });

  it('refuses a multi-process start (REQUIRE_SHARED_FILES) without what the processes must share', () => {
    const shared = {
      REQUIRE_SHARED_FILES: 'true',
      DATABASE_URL: 'postgres://db/sportello',
      SECRET: 's'.repeat(40),
      FILE_STORE: 's3://bucket/prefix',
    };
    expect(loadConfig(shared).REQUIRE_SHARED_FILES).toBe(true);
    // Local files with DATABASE_URL: one line naming FILE_STORE.
    expect(() => loadConfig({ ...shared, FILE_STORE: '' })).toThrow(
      /^REQUIRE_SHARED_FILES=true \(several processes\) needs what they share, missing: FILE_STORE/,
    );
    expect(() => loadConfig({ ...shared, SECRET: undefined, DATABASE_URL: undefined })).toThrow(
      /missing: DATABASE_URL .*; SECRET/,
    );
  });
});
