import { once } from 'node:events';
import type { Response } from 'express';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

/** A PDF being written to a response: pages stream out as they are made. */
export interface PdfWriter {
  doc: PDFKit.PDFDocument;
  /** A title line, with a smaller line under it. */
  heading(title: string, subtitle?: string): void;
  /** A section's name. */
  section(name: string): void;
  /** Label and value lines; an empty value prints a dash. */
  fields(rows: [string, string | number | null | undefined][]): void;
  /** A new page when fewer than `height` points are left on this one. */
  room(height: number): void;
  /** Waits while the client reads what was written (a long document's memory is a page or so). */
  flush(): Promise<void>;
  /** A receipt: its key, signature, URL (as a line and a QR code, when it has one) and the whole JWS, to copy and check. */
  receipt(r: { kid: string; jws: string; url: string | null; jwksUrl: string; note: string }): Promise<void>;
  end(): Promise<void>;
}

const MARGIN = 50;
const LABEL_WIDTH = 150;

/**
 * Starts a PDF download (pdfkit, its standard fonts: WinAnsi text). Nothing is sent before the
 * caller writes, so an error before the first write is still an error answer.
 */
export function sendPdf(res: Response, o: { filename: string; title: string; layout?: 'portrait' | 'landscape' }): PdfWriter {
  const doc = new PDFDocument({ size: 'LETTER', layout: o.layout ?? 'portrait', margin: MARGIN, info: { Title: o.title, Author: 'Licensee Verification Service' } });
  res.type('application/pdf').attachment(o.filename);
  doc.pipe(res);
  const width = () => doc.page.width - 2 * MARGIN;
  const writer: PdfWriter = {
    doc,
    heading(title, subtitle) {
      doc.font('Helvetica-Bold').fontSize(16).text(title);
      if (subtitle) doc.font('Helvetica').fontSize(9).fillColor('#555555').text(subtitle).fillColor('black');
      doc.moveDown(0.8);
    },
    section(name) {
      writer.room(60);
      doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).text(name, MARGIN).moveDown(0.3);
    },
    fields(rows) {
      for (const [label, value] of rows) {
        const text = value === null || value === undefined || value === '' ? '-' : String(value);
        doc.font('Helvetica').fontSize(9);
        const h = Math.max(doc.heightOfString(text, { width: width() - LABEL_WIDTH }), 11);
        writer.room(h + 2);
        const y = doc.y;
        doc.fillColor('#555555').text(label, MARGIN, y, { width: LABEL_WIDTH - 10 }).fillColor('black');
        doc.text(text, MARGIN + LABEL_WIDTH, y, { width: width() - LABEL_WIDTH });
        doc.x = MARGIN;
        doc.y = y + h + 2;
      }
    },
    room(height) {
      if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
    },
    async flush() {
      if (res.writableNeedDrain) await once(res, 'drain');
    },
    async receipt(r) {
      const signature = r.jws.split('.')[2];
      writer.section('Receipt');
      writer.room(150);
      const top = doc.y;
      if (r.url) doc.image(await QRCode.toBuffer(r.url, { type: 'png', margin: 1, width: 240 }), doc.page.width - MARGIN - 100, top, { width: 100 });
      const narrow = width() - 115;
      doc.font('Helvetica').fontSize(9);
      const line = (label: string, value: string, font = 'Helvetica') => {
        doc.fillColor('#555555').font('Helvetica').text(label, MARGIN, doc.y, { width: narrow }).fillColor('black');
        doc.font(font).text(value, MARGIN, doc.y, { width: narrow }).moveDown(0.3);
      };
      line('Key (kid)', r.kid, 'Courier');
      line('Algorithm', 'EdDSA (Ed25519), compact JWS');
      line('Signature', signature, 'Courier');
      if (r.url) line('Receipt URL', r.url);
      line('Public keys', r.jwksUrl);
      doc.y = Math.max(doc.y, top + 110);
      doc.font('Helvetica').fontSize(8).fillColor('#555555').text(r.note, MARGIN, doc.y, { width: width() }).fillColor('black').moveDown(0.5);
      doc.font('Courier').fontSize(6);
      writer.room(doc.heightOfString(r.jws, { width: width() }) + 4);
      doc.text(r.jws, MARGIN, doc.y, { width: width() });
      doc.font('Helvetica').fontSize(9);
    },
    async end() {
      doc.end();
      await once(doc, 'end');
    },
  };
  return writer;
}
