/**
 * The demo portal's pictures and PDFs, drawn at load time so the repository carries no binaries:
 * a minimal PNG encoder (RGBA, one IDAT, node:zlib) and one-page PDFs made with pdf-lib.
 * Both are deterministic: the same input gives the same bytes, so re-importing the demo changes nothing.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export type Rgba = [number, number, number, number];

/** A drawing surface of RGBA pixels. */
export class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgba = [0, 0, 0, 0],
  ) {
    this.pixels = new Uint8Array(width * height * 4);
    this.fill(() => true, background);
  }

  /** Paints every pixel whose centre satisfies `inside`. */
  fill(inside: (x: number, y: number) => boolean, color: Rgba): this {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        if (inside(x + 0.5, y + 0.5)) this.pixels.set(color, (y * this.width + x) * 4);
      }
    }
    return this;
  }

  rect(x0: number, y0: number, x1: number, y1: number, color: Rgba, radius = 0): this {
    return this.fill((x, y) => {
      if (x < x0 || x > x1 || y < y0 || y > y1) return false;
      const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
      const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
      return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
    }, color);
  }

  circle(cx: number, cy: number, r: number, color: Rgba): this {
    return this.fill((x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r, color);
  }

  /** A triangle given by three points (same-side test). */
  triangle(a: [number, number], b: [number, number], c: [number, number], color: Rgba): this {
    const side = (p: [number, number], q: [number, number], x: number, y: number) =>
      (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    return this.fill((x, y) => {
      const d1 = side(a, b, x, y);
      const d2 = side(b, c, x, y);
      const d3 = side(c, a, x, y);
      return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
    }, color);
  }

  toPng(): Buffer {
    const stride = this.width * 4;
    const raw = Buffer.alloc((stride + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * (stride + 1)] = 0; // filter: none
      raw.set(this.pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
    }
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(this.width, 0);
    ihdr.writeUInt32BE(this.height, 4);
    ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', deflateSync(raw, { level: 9 })),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

export const hex = (color: string, alpha = 255): Rgba => {
  const n = Number.parseInt(color.replace('#', ''), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff, alpha];
};

const TEAL = hex('#0b7285');
const WHITE = hex('#ffffff');

/** The demo logo: a teal tile with a white speech bubble ("sportello" = help desk). */
export function demoLogoPng(): Buffer {
  return new Canvas(96, 96)
    .rect(2, 2, 94, 94, TEAL, 20)
    .rect(20, 24, 76, 62, WHITE, 10)
    .triangle([30, 58], [46, 58], [28, 76], WHITE)
    .circle(34, 43, 4.5, TEAL)
    .circle(48, 43, 4.5, TEAL)
    .circle(62, 43, 4.5, TEAL)
    .toPng();
}

/** An agent's profile picture: head and shoulders on a coloured disc. */
export function avatarPng(background: string): Buffer {
  const bg = hex(background);
  const light = hex('#f1f3f5');
  return new Canvas(64, 64)
    .circle(32, 32, 31.5, bg)
    .circle(32, 25, 11, light)
    .fill(
      (x, y) =>
        (x - 32) ** 2 / 20 ** 2 + (y - 58) ** 2 / 17 ** 2 <= 1 && (x - 32) ** 2 + (y - 32) ** 2 <= 31.5 ** 2,
      light,
    )
    .toPng();
}

/** A "screenshot" a customer attaches: a window with an error dialog. */
export function screenshotPng(): Buffer {
  return new Canvas(200, 130, hex('#dee2e6'))
    .rect(8, 8, 192, 122, WHITE, 4)
    .rect(8, 8, 192, 24, hex('#1c7ed6'), 0)
    .circle(180, 16, 4, hex('#ff6b6b'))
    .rect(20, 34, 120, 40, hex('#ced4da'))
    .rect(20, 46, 160, 52, hex('#ced4da'))
    .rect(20, 58, 100, 64, hex('#ced4da'))
    .rect(50, 72, 150, 112, hex('#fff5f5'), 4)
    .rect(50, 72, 150, 80, hex('#e03131'))
    .circle(68, 96, 8, hex('#e03131'))
    .rect(84, 90, 140, 94, hex('#868e96'))
    .rect(84, 99, 124, 103, hex('#868e96'))
    .toPng();
}

/** A floor plan a customer keeps among their documents. */
export function floorPlanPng(): Buffer {
  const wall = hex('#343a40');
  return new Canvas(180, 120, WHITE)
    .rect(6, 6, 174, 114, wall)
    .rect(10, 10, 170, 110, hex('#f8f9fa'))
    .rect(88, 10, 92, 70, wall)
    .rect(10, 66, 60, 70, wall)
    .rect(76, 66, 170, 70, wall)
    .rect(30, 24, 70, 50, hex('#a5d8ff'), 3)
    .rect(110, 24, 160, 50, hex('#b2f2bb'), 3)
    .rect(40, 84, 150, 100, hex('#ffec99'), 3)
    .toPng();
}

export interface PdfSpec {
  title: string;
  subtitle?: string;
  lines: string[];
}

/** A one-page A4 PDF in the portal's colours; text must be WinAnsi (Latin-1 plus a few signs). */
export async function makePdf(spec: PdfSpec, now: Date): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(spec.title);
  doc.setAuthor('Sportello Assistenza Srl');
  doc.setCreator('Sportello');
  doc.setProducer('Sportello');
  // Fixed dates keep the bytes (and so the SHA-256) stable between two builds with the same clock.
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  const teal = rgb(11 / 255, 114 / 255, 133 / 255);
  page.drawRectangle({ x: 0, y: 782, width: 595, height: 60, color: teal });
  page.drawText('Sportello Assistenza Srl', { x: 48, y: 815, size: 16, font: bold, color: rgb(1, 1, 1) });
  page.drawText('Via dei Mille 24, 40121 Bologna  -  P.IVA IT01234567890', {
    x: 48,
    y: 797,
    size: 9,
    font,
    color: rgb(1, 1, 1),
  });
  page.drawText(spec.title, { x: 48, y: 740, size: 18, font: bold, color: rgb(0.13, 0.13, 0.14) });
  let y = 716;
  if (spec.subtitle) {
    page.drawText(spec.subtitle, { x: 48, y, size: 11, font, color: rgb(0.35, 0.37, 0.4) });
    y -= 30;
  }
  for (const line of spec.lines) {
    page.drawText(line, { x: 48, y, size: 11, font, color: rgb(0.13, 0.13, 0.14), maxWidth: 500 });
    y -= line === '' ? 10 : 18;
  }
  page.drawLine({ start: { x: 48, y: 80 }, end: { x: 547, y: 80 }, thickness: 0.5, color: teal });
  page.drawText('Documento di esempio generato per il portale dimostrativo.', {
    x: 48,
    y: 64,
    size: 8,
    font,
    color: rgb(0.45, 0.47, 0.5),
  });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
