import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { letter } from './corpus';
import {
  authenticationFailed,
  automaticReason,
  bouncedRecipients,
  replyText,
  senderOf,
  ticketTitleOf,
} from './inbound.classify';

const vars = { FROM: 'mario@acme.example', TO: 'support@acme.example', INREPLYTO: '<t-1-x@acme.example>' };

describe('what a received message is', () => {
  it('strips the quoted history and signature of the common clients, keeping what was written', async () => {
    const cases = [
      [
        'outlook-reply-it',
        'Buongiorno, la stampante è ancora ferma: il display dice "Errore 52".\n\nGrazie\nMario',
      ],
      ['gmail-reply-es', 'Gracias, ya funciona. ¡Perfecto!'],
      ['apple-mail-reply-it', 'Ho riavviato e ora stampa.\n\nMario'],
      ['thunderbird-reply-en', 'Thanks, it works now.'],
    ] as const;
    for (const [name, expected] of cases) {
      const m = await simpleParser(letter(name, vars));
      expect(replyText(m), name).toBe(expected);
      expect(automaticReason(m), name).toBeUndefined();
      expect(bouncedRecipients(m), name).toBeUndefined();
    }
  });

  it('keeps a forward whole; cuts Outlook’s "-----Messaggio originale-----" block with the history', async () => {
    const gmail = replyText(await simpleParser(letter('gmail-forward-it', vars)));
    expect(gmail).toMatch(/^Vi giro l'avviso del corriere: la stampante nuova è ferma a Bologna\./);
    expect(gmail).toContain('---------- Forwarded message ---------\nDa: Corriere Espresso');
    expect(gmail).toMatch(
      /in giacenza presso il deposito di Bologna\.[\s\S]*-- \nCorriere Espresso S\.p\.A\.$/,
    );
    const outlook = replyText(await simpleParser(letter('outlook-forward-it', vars)));
    expect(outlook).toMatch(/^Vi inoltro la conferma del fornitore/);
    expect(outlook).toContain('Oggetto: Conferma ordine 4471');
    expect(outlook).toMatch(/sarà consegnato entro il 27 novembre\.\n\nCordiali saluti\nUfficio Ordini$/);
    // A reply to a forward is a reply.
    const re = await simpleParser(
      'From: a@b.example\r\nSubject: Re: Fwd: x\r\n\r\nOk.\r\n\r\nOn Mon, B wrote:\r\n> old\r\n',
    );
    expect(replyText(re)).toBe('Ok.');
    expect(replyText(await simpleParser(letter('outlook-winmail-it', vars)))).toBe(
      "Allego la schermata dell'errore (formato RTF di Outlook).\n\nMario",
    );
  });

  it('reads encoded-word subjects in Italian and Spanish and an HTML-only body', async () => {
    expect((await simpleParser(letter('outlook-reply-it', vars))).subject).toContain('funziona è urgente');
    expect((await simpleParser(letter('gmail-reply-es', vars))).subject).toContain('¿qué hago?');
    expect((await simpleParser(letter('no-message-id-it', vars))).subject).toBe(
      'Informazioni sul servizio à Milano',
    );
    const html = await simpleParser(letter('html-only-it', vars));
    expect(replyText(html)).toContain('stampante nuova');
    expect(replyText(html)).not.toContain('alert');
  });

  it('knows automatic messages by their headers', async () => {
    expect(automaticReason(await simpleParser(letter('auto-reply-it', vars)))).toMatch(
      /Auto-Submitted: auto-replied/,
    );
    const headers = (h: string) => simpleParser(`From: a@b.example\r\n${h}\r\nSubject: x\r\n\r\nbody\r\n`);
    expect(automaticReason(await headers('Precedence: bulk'))).toMatch(/Precedence/);
    expect(automaticReason(await headers('X-Autorespond: yes'))).toMatch(/x-autorespond/);
    expect(automaticReason(await headers('List-Id: <news.example.com>'))).toMatch(/List-Id/);
    expect(automaticReason(await headers('Auto-Submitted: no'))).toBeUndefined();
  });

  it('reads the failed recipient of a delivery status notification', async () => {
    const m = await simpleParser(letter('dsn', { ...vars, BOUNCED: 'Anna@Acme.example' }));
    expect(bouncedRecipients(m)).toEqual([{ address: 'anna@acme.example', status: '5.1.1' }]);
  });

  it('tells when the receiving server said the sender failed SPF or DKIM', async () => {
    expect(authenticationFailed(await simpleParser(letter('outlook-reply-it', vars)))).toBe(false);
    const forged = await simpleParser(
      'Authentication-Results: mx.acme.example; spf=fail smtp.mailfrom=acme.example; dkim=none\r\n' +
        'From: Mario <MARIO@acme.example>\r\nSubject: x\r\n\r\nbody\r\n',
    );
    expect(authenticationFailed(forged)).toBe(true);
    expect(senderOf(forged)).toEqual({ address: 'mario@acme.example', name: 'Mario' });
  });

  it('opens a ticket under the subject without the prefixes of replies and forwards', () => {
    expect(ticketTitleOf('Fwd: Stampante ferma')).toBe('Stampante ferma');
    expect(ticketTitleOf('RE: I: R: Preventivo 2026/0118')).toBe('Preventivo 2026/0118');
    expect(ticketTitleOf('AW: WG: Fw[2]: Drucker')).toBe('Drucker');
    expect(ticketTitleOf('  rv:  Factura pendiente ')).toBe('Factura pendiente');
    // A prefix is a word before a colon, not any word: these stay as written.
    expect(ticketTitleOf('Ritardo: consegna toner')).toBe('Ritardo: consegna toner');
    expect(ticketTitleOf('Ire: the printer')).toBe('Ire: the printer');
    expect(ticketTitleOf('Fwd:')).toBe('Fwd:');
  });
});
