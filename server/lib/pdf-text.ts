// The typeface and text of the PDF documents (time cards, the monthly hours report): DejaVu Sans,
// embedded (subset) so that a name prints as it is written (docs/decisions/045-pdf-font-and-document-titles.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/** The names the documents' fonts are registered under (see useDocumentFonts). */
export const PDF_FONT = 'DejaVuSans';
export const PDF_BOLD = 'DejaVuSans-Bold';

// Resolved through the package, not a path beside this file: the built server (dist/server) and
// the sources find the same file in node_modules.
const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`);

type Fonts = { regular: Buffer; bold: Buffer; covers: (codePoint: number) => boolean };
let fonts: Fonts | null = null;

/** Read once per process (about 1.5 MB); each document embeds only the glyphs it uses. */
function loadFonts(): Fonts {
  if (fonts) return fonts;
  const regular = fs.readFileSync(fontFile('DejaVuSans.ttf'));
  const bold = fs.readFileSync(fontFile('DejaVuSans-Bold.ttf'));
  const faces = [regular, bold].map((b) => {
    const f = fontkit.create(b);
    if (!('hasGlyphForCodePoint' in f)) throw new Error('DejaVu Sans: expected a single font, got a collection');
    return f;
  });
  // A character prints only if both weights draw it, so a name looks the same in a bold header.
  fonts = { regular, bold, covers: (cp) => faces.every((f) => f.hasGlyphForCodePoint(cp)) };
  return fonts;
}

/** Register the embedded fonts on a new document and make the regular one current. */
export function useDocumentFonts(doc: PDFKit.PDFDocument): void {
  const f = loadFonts();
  doc.registerFont(PDF_FONT, f.regular);
  doc.registerFont(PDF_BOLD, f.bold);
  doc.font(PDF_FONT);
}

/**
 * Text as the documents' font can draw it. DejaVu Sans covers Latin with every accent (Vietnamese
 * included), Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic letters; it has no CJK,
 * Indic, Thai or emoji glyphs. A character it lacks would print as an empty box: a letter whose
 * accent is what it lacks loses the accent, anything else prints as '?', so a name is never
 * silently turned into a different one.
 */
export function printable(text: string): string {
  const { covers } = loadFonts();
  const drawn = (s: string) => [...s].every((c) => covers(c.codePointAt(0)!));
  let out = '';
  for (const c of text.normalize('NFC')) {
    if (drawn(c)) {
      out += c;
      continue;
    }
    if (/\p{M}/u.test(c)) continue; // a combining accent the font lacks: the letter stays
    const base = [...c.normalize('NFD')].filter((p) => !/\p{M}/u.test(p)).join('');
    out += base !== '' && drawn(base) ? base : '?';
  }
  return out;
}
