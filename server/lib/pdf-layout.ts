import { PDF_BOLD, PDF_FONT, printable } from './pdf-text.ts';
import { sliceYielder } from './event-loop-turns.ts';

// The layout the PDF documents share (decision 045): a heading that wraps instead of being cut,
// and tables whose columns are as wide as their widest cell where the page allows, never wider
// than the page all together.

/**
 * The document's heading at `top`: the school's name (wrapped, never cut) with the document's
 * title on its right; without a school name, the title alone. Returns the y below it.
 */
export function drawHeading(doc: PDFKit.PDFDocument, h: { schoolName: string | null; title: string; left: number; top: number; width: number }): number {
  if (!h.schoolName) {
    doc.font(PDF_BOLD).fontSize(14).text(printable(h.title), h.left, h.top, { width: h.width });
    return h.top + doc.heightOfString(printable(h.title), { width: h.width }) + 6;
  }
  // The title stands on the first line's baseline.
  const baseline = h.top + 13;
  const titleWidth = doc.font(PDF_BOLD).fontSize(11).widthOfString(h.title);
  doc.text(h.title, h.left, baseline, { width: h.width, align: 'right', lineBreak: false, baseline: 'alphabetic' });
  const name = printable(h.schoolName);
  const nameWidth = h.width - titleWidth - 18;
  doc.font(PDF_BOLD).fontSize(14).text(name, h.left, baseline, { width: nameWidth, baseline: 'alphabetic' });
  return h.top + doc.heightOfString(name, { width: nameWidth }) + 6;
}

export type TableColumn<K extends string> = {
  key: K;
  title: string;
  right?: boolean;
  /** Text that may give up width (names, programs), cut with an ellipsis; others keep their widest cell. */
  flex?: boolean;
};
type FittedColumn<K extends string> = TableColumn<K> & { x: number; width: number };
type FittedTable<K extends string> = { size: number; columns: FittedColumn<K>[]; width: number };

/** Space left and right of the text inside a cell. */
export const CELL_PAD = 3;

/**
 * Column widths and a font size that fit `width`: the largest of `sizes` at which every column is
 * as wide as its widest cell (its bold title included) plus padding, the flexible columns sharing
 * what is left. When no size fits everything, the smallest one, with the flexible columns giving
 * up width, the widest first, down to their titles' width (their cells are then cut with an
 * ellipsis). Widths scale with the font size, so each text is measured once. Throws when even the
 * smallest size cannot fit the titles: a programming error. Measuring a few thousand rows' cells
 * takes a few hundred milliseconds: it lets waiting I/O through between slices.
 */
export async function fitTable<K extends string>(
  doc: PDFKit.PDFDocument,
  columns: TableColumn<K>[],
  cells: Record<K, string[]>,
  opts: { left: number; width: number; sizes: number[]; boldCells?: Record<K, string[]> },
): Promise<FittedTable<K>> {
  const pause = sliceYielder();
  const cache = new Map<string, number>();
  const measure = (s: string, bold: boolean) => {
    const key = `${bold ? 'b' : 'r'}${s}`;
    let w = cache.get(key);
    if (w == null) {
      w = doc
        .font(bold ? PDF_BOLD : PDF_FONT)
        .fontSize(1)
        .widthOfString(printable(s));
      cache.set(key, w);
    }
    return w;
  };
  // Widths at font size 1.
  const title = columns.map((c) => measure(c.title, true));
  const natural: number[] = [];
  for (const [i, c] of columns.entries()) {
    let widest = Math.max(title[i]!, ...(opts.boldCells?.[c.key] ?? []).map((s) => measure(s, true)));
    for (const s of cells[c.key]) {
      widest = Math.max(widest, measure(s, false));
      await pause();
    }
    natural.push(widest);
  }
  const flex = columns.map((c, i) => i).filter((i) => columns[i]!.flex);
  const pad = 2 * CELL_PAD;
  const wants = (size: number) => columns.reduce((n, _, i) => n + natural[i]! * size + pad, 0);
  const size = opts.sizes.find((z) => wants(z) <= opts.width) ?? opts.sizes.at(-1)!;
  const fixed = columns.reduce((n, c, i) => n + (c.flex ? 0 : natural[i]! * size + pad), 0);
  const budget = opts.width - fixed - flex.length * pad;
  const least = flex.reduce((n, i) => n + title[i]! * size, 0);
  if (budget < least - 1e-6) throw new Error(`The table's titles do not fit ${opts.width} pt even at ${size} pt`);
  const want = flex.reduce((n, i) => n + natural[i]! * size, 0);
  const widths = columns.map((_, i) => natural[i]! * size);
  if (want <= budget) {
    // Room to spare: the flexible columns share it in proportion to what they hold.
    for (const i of flex) widths[i] = natural[i]! * size + (want > 0 ? ((budget - want) * (natural[i]! * size)) / want : (budget - want) / flex.length);
  } else {
    // Too wide: one cap for all flexible columns (never below a title), found by halving.
    let lo = 0;
    let hi = Math.max(...flex.map((i) => natural[i]! * size));
    const total = (cap: number) => flex.reduce((n, i) => n + Math.max(title[i]! * size, Math.min(natural[i]! * size, cap)), 0);
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (total(mid) > budget) hi = mid;
      else lo = mid;
    }
    for (const i of flex) widths[i] = Math.max(title[i]! * size, Math.min(natural[i]! * size, lo));
  }
  let x = opts.left;
  const fitted = columns.map((c, i) => {
    const col = { ...c, x, width: widths[i]! + pad };
    x += col.width;
    return col;
  });
  return { size, columns: fitted, width: x - opts.left };
}

/** `s` as printed, cut with an ellipsis where it is wider than `width` at the current font and size. */
export function clipText(doc: PDFKit.PDFDocument, s: string, width: number): string {
  const text = printable(s);
  if (doc.widthOfString(text) <= width) return text;
  const chars = [...text];
  // The longest beginning that fits with its ellipsis (at least one character), by halving.
  let lo = 1;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${chars.slice(0, mid).join('')}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('')}…`;
}
