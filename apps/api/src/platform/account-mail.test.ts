import { describe, expect, it } from 'vitest';
import { invitationEmail, recoveryEmail } from './account-mail';

const LANGS = ['it-IT', 'en-EN', 'es-ES'] as const;

describe('auth e-mails', () => {
  it('has the recovery e-mail in every language of the portal', () => {
    const subjects = LANGS.map(
      (language) =>
        recoveryEmail({
          to: 'a@x.example',
          userName: 'anna',
          portalName: 'ACME',
          link: 'https://l',
          language,
        }).subject,
    );
    expect(subjects).toEqual([
      'Reimposta la tua password',
      'Reset your password',
      'Restablece tu contraseña',
    ]);
  });

  it('has the invitation in every language, with English below for users who may not read it', () => {
    const mail = (language: string) =>
      invitationEmail({
        to: 'a@x.example',
        userName: 'nuovo<b>',
        portalName: 'ACME & Co',
        link: 'https://portal.example/confirm?token=abc',
        language,
      });
    const es = mail('es-ES');
    expect(es.subject).toBe('Invitación a ACME & Co / Invitation to ACME & Co');
    expect(es.text).toContain('Hola:');
    expect(es.text).toContain(
      'se ha creado para ti una cuenta en ACME & Co con el nombre de usuario "nuovo<b>"',
    );
    expect(es.text).toContain('Hello,');
    expect(es.html).toContain('<b>ACME &amp; Co</b>');
    expect(es.html).toContain('<b>nuovo&lt;b&gt;</b>');
    expect(es.html).not.toContain('nuovo<b>');
    expect(mail('it-IT').text).toMatch(/^Buongiorno,[\s\S]*Hello,/);
    const en = mail('en-EN');
    expect(en.subject).toBe('Invitation to ACME & Co');
    expect(en.text).not.toContain('Buongiorno');
    for (const m of [es, en, mail('it-IT')])
      expect(m.text.split('https://portal.example/confirm?token=abc').length).toBeGreaterThan(1);
  });
});
