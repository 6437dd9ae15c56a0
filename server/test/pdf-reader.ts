import zlib from 'node:zlib';

/**
 * Enough of a PDF reader for the tests of the PDFs pdfkit writes (time cards, the monthly report),
 * without a PDF library: objects are read by their /Length, each embedded font's ToUnicode map
 * turns glyph ids back into text and its /W widths give each run's printed width. A run is one
 * `[…] TJ` at the position of the `Tm` before it.
 */

export type PdfRun = { x: number; y: number; width: number; size: number; font: string; text: string };
export type PdfPage = { width: number; height: number; runs: PdfRun[]; lines: string[] };
type PdfFile = { pages: PdfPage[]; fontNames: string[] };

type PdfObject = { dict: string; stream: Buffer | null };

function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const head = /(\d+) 0 obj\n/g;
  let m: RegExpExecArray | null;
  while ((m = head.exec(text))) {
    const start = head.lastIndex;
    const streamAt = text.indexOf('\nstream\n', start);
    const endAt = text.indexOf('\nendobj', start);
    if (streamAt !== -1 && streamAt < endAt) {
      const dict = text.slice(start, streamAt);
      const length = Number(/\/Length (\d+)/.exec(dict)![1]);
      const from = streamAt + '\nstream\n'.length;
      const raw = pdf.subarray(from, from + length);
      objects.set(Number(m[1]), { dict, stream: dict.includes('/FlateDecode') ? zlib.inflateSync(raw) : raw });
      head.lastIndex = from + length;
    } else {
      objects.set(Number(m[1]), { dict: text.slice(start, endAt), stream: null });
      head.lastIndex = endAt;
    }
  }
  return objects;
}

const ref = (dict: string, key: string) => {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

type Font = { name: string; unicode: Map<number, string>; widths: Map<number, number>; twoByte: boolean };

/** Glyph id → text from a `beginbfrange <a> <b> [<u> …]` ToUnicode map, as pdfkit writes it. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const r of cmap.matchAll(/<([0-9a-f]+)> <([0-9a-f]+)> \[([^\]]*)\]/gi)) {
    let gid = parseInt(r[1]!, 16);
    for (const u of r[3]!.matchAll(/<([0-9a-f ]+)>/gi)) {
      const units = u[1]!.split(' ').map((h) => parseInt(h, 16));
      map.set(gid++, String.fromCharCode(...units));
    }
  }
  return map;
}

function readFonts(objects: Map<number, PdfObject>): Map<string, Font> {
  const fonts = new Map<string, Font>();
  for (const { dict } of objects.values()) {
    const block = /\/Font <<([\s\S]*?)>>/.exec(dict);
    if (!block) continue;
    for (const [, key, id] of block[1]!.matchAll(/\/(\w+) (\d+) 0 R/g)) {
      if (fonts.has(key!)) continue;
      const font = objects.get(Number(id))!.dict;
      const name = /\/BaseFont \/(\S+)/.exec(font)![1]!;
      const cmapId = ref(font, 'ToUnicode');
      const descendant = /\/DescendantFonts \[(\d+) 0 R\]/.exec(font);
      const widths = new Map<number, number>();
      if (descendant) {
        const w = /\/W \[0 \[([^\]]*)\]\]/.exec(objects.get(Number(descendant[1]))!.dict);
        w?.[1]!
          .trim()
          .split(/\s+/)
          .forEach((n, gid) => widths.set(gid, Number(n)));
      }
      fonts.set(key!, {
        name,
        widths,
        twoByte: cmapId != null,
        unicode: cmapId != null ? toUnicode(objects.get(cmapId)!.stream!.toString('latin1')) : new Map(),
      });
    }
  }
  return fonts;
}

/** Reads the pages of a PDF written by pdfkit: its text runs with position and width, and lines. */
export function readPdf(pdf: Buffer): PdfFile {
  const objects = readObjects(pdf);
  const fonts = readFonts(objects);
  const root = [...objects.values()].find((o) => /\/Type \/Pages\b/.test(o.dict))!;
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(root.dict)![1]!.matchAll(/(\d+) 0 R/g)].map((k) => Number(k[1]));
  const pages = kids.map((id): PdfPage => {
    const page = objects.get(id)!.dict;
    const box = /\/MediaBox \[([^\]]*)\]/.exec(page)![1]!.trim().split(/\s+/).map(Number);
    const content = objects.get(ref(page, 'Contents')!)!.stream!.toString('latin1');
    const runs: PdfRun[] = [];
    let x = 0;
    let y = 0;
    let font: Font | undefined;
    let size = 0;
    for (const op of content.matchAll(/1 0 0 1 ([\d.-]+) ([\d.-]+) Tm|\/(\w+) ([\d.]+) Tf|\[(.*?)\] TJ/g)) {
      if (op[1] != null) {
        x = Number(op[1]);
        y = Number(op[2]);
      } else if (op[3] != null) {
        font = fonts.get(op[3]);
        size = Number(op[4]);
      } else {
        let text = '';
        let width = 0;
        for (const part of op[5]!.matchAll(/<([0-9a-f]*)>|(-?[\d.]+)/gi)) {
          if (part[2] != null) {
            width -= (Number(part[2]) / 1000) * size;
            continue;
          }
          const hex = part[1]!;
          const step = font?.twoByte ? 4 : 2;
          for (let i = 0; i < hex.length; i += step) {
            const code = parseInt(hex.slice(i, i + step), 16);
            text += font?.twoByte ? (font.unicode.get(code) ?? '\ufffd') : String.fromCharCode(code);
            width += ((font?.widths.get(code) ?? 0) / 1000) * size;
          }
        }
        runs.push({ x, y, width, size, font: font?.name ?? '', text });
      }
    }
    // Strings on one baseline, left to right, joined with ' | '; baselines top to bottom.
    const rows = new Map<number, PdfRun[]>();
    for (const r of runs) (rows.get(Math.round(r.y)) ?? rows.set(Math.round(r.y), []).get(Math.round(r.y))!).push(r);
    const lines = [...rows.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([, cells]) =>
        cells
          .sort((a, b) => a.x - b.x)
          .map((c) => c.text)
          .join(' | '),
      );
    return { width: box[2]! - box[0]!, height: box[3]! - box[1]!, runs, lines };
  });
  return { pages, fontNames: [...new Set([...fonts.values()].map((f) => f.name))] };
}

/** Each page's lines (see readPdf). */
export const pdfPages = (pdf: Buffer): string[][] => readPdf(pdf).pages.map((p) => p.lines);
