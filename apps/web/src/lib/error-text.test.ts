import { describe, expect, it } from 'vitest';
import { i18n, loadAllLanguages } from '../i18n';
import { ApiRequestError } from './api-client';
import { errorText } from './error-text';

describe('errorText', () => {
  it('never shows the browser’s or the server’s English words for a failure of the connection or the server', async () => {
    await loadAllLanguages();
    for (const lang of ['it-IT', 'en-EN', 'es-ES']) {
      const t = i18n.getFixedT(lang);
      const texts = [
        errorText(new TypeError('Failed to fetch'), t),
        errorText(new TypeError('NetworkError when attempting to fetch resource.'), t),
        errorText(new ApiRequestError(0, 'network_error', 'Network error'), t),
        errorText(new ApiRequestError(500, 'internal_error', 'Internal Server Error'), t),
        errorText(new ApiRequestError(502, 'http_502', 'Bad Gateway'), t),
        errorText(new ApiRequestError(503, 'http_503', 'Service Unavailable'), t),
        errorText(new ApiRequestError(413, 'payload_too_large', 'Payload Too Large'), t),
        errorText(new ApiRequestError(429, 'too_many_requests', 'Too Many Requests'), t),
        errorText(new Error('boom'), t),
      ];
      for (const text of texts) {
        expect(text).not.toMatch(
          /Failed to fetch|NetworkError|Network error|Internal Server Error|Bad Gateway|Service Unavailable|Too Many Requests|Payload Too Large|boom/,
        );
        expect(text).not.toMatch(/^common\./);
      }
    }
    expect(errorText(new TypeError('Failed to fetch'), i18n.getFixedT('it-IT'))).toMatch(/server/);
  });

  it('keeps the server’s message of a refusal, which names the rule', () => {
    const t = i18n.getFixedT('en-EN');
    expect(errorText(new ApiRequestError(400, 'validation_error', 'title: too long'), t)).toBe(
      'title: too long',
    );
  });
});
