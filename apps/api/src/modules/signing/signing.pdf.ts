import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

type PdfLib = typeof import('pdf-lib');

export type AuditLanguage = 'it-IT' | 'en-EN' | 'es-ES';

/** How the signer proved who they are: a code sent to a (masked) phone, or acceptance alone. */
export type Verification = { method: 'sms_otp'; maskedPhone: string } | { method: 'acceptance' };

/** What the audit page states about one signature. */
export interface AuditFacts {
  documentName: string;
  documentKey: string;
  signerName: string;
  typedName: string;
  companyName: string;
  portalName: string;
  /** Already formatted in the portal's time zone, e.g. `20/11/2026 11:00:00 (Europe/Rome)`. */
  signedAtLocal: string;
  signedAtUtc: string;
  ip: string;
  userAgent: string;
  verification: Verification;
  originalSha256: string;
  originalFileName: string;
}

const LABELS: Record<AuditLanguage, Record<string, string>> = {
  'it-IT': {
    title: 'Certificato di firma',
    document: 'Documento',
    signer: 'Firmatario',
    typedName: 'Nome digitato dal firmatario',
    company: 'Azienda',
    portal: 'Portale',
    signedAt: 'Data e ora della firma',
    ip: 'Indirizzo IP',
    userAgent: 'Browser (user agent)',
    verification: 'Verifica',
    smsOtp: 'Codice OTP via SMS a {phone}',
    acceptance: 'Accettazione (senza codice)',
    sha: 'SHA-256 del documento originale',
    key: 'Chiave della richiesta',
    original: 'File originale',
    notEmbedded: 'non incluso: non è un PDF leggibile',
    footer:
      'Pagina aggiunta da Sportello al momento della firma. Lo SHA-256 identifica il file originale firmato.',
  },
  'en-EN': {
    title: 'Signature certificate',
    document: 'Document',
    signer: 'Signer',
    typedName: 'Name typed by the signer',
    company: 'Company',
    portal: 'Portal',
    signedAt: 'Signed on',
    ip: 'IP address',
    userAgent: 'Browser (user agent)',
    verification: 'Verification',
    smsOtp: 'SMS OTP to {phone}',
    acceptance: 'Acceptance (no code)',
    sha: 'SHA-256 of the original document',
    key: 'Request key',
    original: 'Original file',
    notEmbedded: 'not included: not a readable PDF',
    footer:
      'Page added by Sportello when the document was signed. The SHA-256 identifies the original file that was signed.',
  },
  'es-ES': {
    title: 'Certificado de firma',
    document: 'Documento',
    signer: 'Firmante',
    typedName: 'Nombre escrito por el firmante',
    company: 'Empresa',
    portal: 'Portal',
    signedAt: 'Fecha y hora de la firma',
    ip: 'Dirección IP',
    userAgent: 'Navegador (user agent)',
    verification: 'Verificación',
    smsOtp: 'Código OTP por SMS a {phone}',
    acceptance: 'Aceptación (sin código)',
    sha: 'SHA-256 del documento original',
    key: 'Clave de la solicitud',
    original: 'Archivo original',
    notEmbedded: 'no incluido: no es un PDF legible',
    footer:
      'Página añadida por Sportello en el momento de la firma. El SHA-256 identifica el archivo original firmado.',
  },
};

export const auditLanguageOf = (lang: string): AuditLanguage =>
  lang === 'en-EN' || lang === 'es-ES' ? lang : 'it-IT';

/**
 * The standard fonts only encode WinAnsi: a name in Cyrillic or an emoji in a user agent would make
 * pdf-lib throw and the signature fail. Accents are dropped first (é → e) when the letter itself is
 * not encodable, anything else becomes '?'; control characters become spaces.
 */
export function winAnsiSafe(text: string, font: PDFFont): string {
  const charset = charsets.get(font) ?? new Set(font.getCharacterSet());
  charsets.set(font, charset);
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || cp === 0x7f) {
      out += ' ';
      continue;
    }
    if (charset.has(cp)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += base && [...base].every((c) => charset.has(c.codePointAt(0)!)) ? base : '?';
  }
  return out;
}
const charsets = new WeakMap<PDFFont, Set<number>>();

/** Greedy word wrap; a word wider than the line (a user agent token, a hash) is cut by characters. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (!fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;

async function drawAuditPage(
  { StandardFonts, rgb }: PdfLib,
  doc: PDFDocument,
  facts: AuditFacts,
  lang: AuditLanguage,
  originalEmbedded: boolean,
): Promise<void> {
  const l = LABELS[lang];
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const page: PDFPage = doc.addPage(A4);
  const width = A4[0] - 2 * MARGIN;
  let y = A4[1] - MARGIN;
  const grey = rgb(0.35, 0.35, 0.35);

  const text = (s: string, font: PDFFont, size: number, color = rgb(0, 0, 0)) => {
    for (const line of wrapText(winAnsiSafe(s, font), font, size, width)) {
      y -= size * 1.25;
      page.drawText(line, { x: MARGIN, y, size, font, color });
    }
  };

  text(l.title!, bold, 20);
  y -= 6;
  page.drawLine({
    start: { x: MARGIN, y },
    end: { x: A4[0] - MARGIN, y },
    thickness: 1,
    color: rgb(0.7, 0.7, 0.7),
  });
  y -= 10;

  const row = (label: string, value: string, font: PDFFont = regular, size = 11) => {
    text(label, bold, 9, grey);
    y -= 2;
    text(value, font, size);
    y -= 10;
  };
  row(l.document!, facts.documentName);
  row(l.signer!, facts.signerName);
  row(l.typedName!, facts.typedName);
  row(l.company!, facts.companyName);
  row(l.portal!, facts.portalName);
  row(l.signedAt!, `${facts.signedAtLocal}  -  UTC ${facts.signedAtUtc}`);
  row(l.ip!, facts.ip);
  row(l.userAgent!, facts.userAgent, regular, 9);
  const v = facts.verification;
  row(l.verification!, v.method === 'sms_otp' ? l.smsOtp!.replace('{phone}', v.maskedPhone) : l.acceptance!);
  row(l.sha!, facts.originalSha256, mono, 10);
  row(l.key!, facts.documentKey, mono, 10);
  if (!originalEmbedded) row(l.original!, `${facts.originalFileName} (${l.notEmbedded!})`);

  y = Math.min(y, MARGIN + 40);
  text(l.footer!, regular, 8, grey);
}

export interface SignedPdf {
  bytes: Uint8Array;
  /** Pages of the original that were kept (0 when the original was not a readable PDF). */
  originalPages: number;
}

/**
 * The signed PDF: the original's pages followed by one audit page. A file that is not a readable PDF
 * (another type, encrypted, damaged) still gets signed: the result is the audit page alone, which
 * names the original and fixes it by its SHA-256.
 */
export async function buildSignedPdf(
  original: Uint8Array,
  contentType: string,
  facts: AuditFacts,
  lang: AuditLanguage,
  now: Date,
): Promise<SignedPdf> {
  // pdf-lib (~15 MB) is loaded by the first signature, not when the server starts.
  const lib = await import('pdf-lib');
  const { PDFDocument } = lib;
  let doc: PDFDocument | undefined;
  let originalPages = 0;
  if (contentType.toLowerCase() === 'application/pdf' || isPdfMagic(original)) {
    try {
      doc = await PDFDocument.load(original, { updateMetadata: false });
      // A file that starts like a PDF but has no page tree loads, then fails here: the audit page alone.
      originalPages = doc.getPageCount();
    } catch {
      doc = undefined;
      originalPages = 0;
    }
  }
  doc ??= await PDFDocument.create({ updateMetadata: false });
  await drawAuditPage(lib, doc, facts, lang, originalPages > 0);
  doc.setProducer('Sportello');
  doc.setModificationDate(now);
  if (originalPages === 0) {
    // Metadata strings are UTF-16 in the file: any name fits there.
    doc.setTitle(facts.documentName);
    doc.setCreationDate(now);
  }
  return { bytes: await doc.save(), originalPages };
}

const isPdfMagic = (b: Uint8Array) =>
  b.length > 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46;
