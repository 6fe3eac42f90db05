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

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DEMO_DATA: 'false' })).toMatchObject({ PORT: 3000, DEMO_DATA: false });
  });
});
