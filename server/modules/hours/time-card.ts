import PDFDocument from 'pdfkit';

import { CELL_PAD, clipText, drawHeading, fitTable, type TableColumn } from '../../lib/pdf-layout.ts';
import { PDF_BOLD, PDF_FONT, printable, useDocumentFonts } from '../../lib/pdf-text.ts';
import { dayOfWeek } from '../../lib/school-time.ts';
import { CORRECTED_MARK, CORRECTED_NOTE, hoursMinutes, type TimeCard, type TimeCardTotals } from './time-card-days.ts';

/**
 * The printable time card of one student (docs/decisions/015-time-card-pdf.md): each day
 * of a date range with its records' in/out times, the ledger's minutes, status and make-up, the
 * range's totals, the payment period and signature lines. Pure: the service loads the ledger, the
 * records and the make-up sessions and hands them here.
 */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const TIME_CARD_TITLE = 'Student time card';

// Letter paper (US schools) in landscape, half-inch margins: a table of one row per day, laid out to
// the width. Its fifteen columns (the time-clock steps beside the ledger's minutes) need the long side.
const PAGE = { width: 792, height: 612, margin: 36 };
const BODY_BOTTOM = PAGE.height - PAGE.margin - 20; // room for the footer
const TABLE_WIDTH = PAGE.width - 2 * PAGE.margin;
const FONT = PDF_FONT;
const BOLD = PDF_BOLD;
const LINE = 10;
type FigureKey = 'scheduled' | 'raw' | 'rounded' | 'deducted' | 'capped' | 'attended' | 'excused' | 'makeUp' | 'credited' | 'pending' | 'autoOut';
type Key = 'date' | 'course' | 'inOut' | 'status' | FigureKey;
// Raw → Rounded → Deducted → Capped → Attended read left to right; Pending and Auto out are flags beside Credited.
const COLUMNS: TableColumn<Key>[] = [
  { key: 'date', title: 'Date' },
  { key: 'course', title: 'Course', flex: true },
  { key: 'inOut', title: 'In–out' },
  { key: 'status', title: 'Status', flex: true },
  { key: 'scheduled', title: 'Scheduled', right: true },
  { key: 'raw', title: 'Raw', right: true },
  { key: 'rounded', title: 'Rounded', right: true },
  { key: 'deducted', title: 'Deducted', right: true },
  { key: 'capped', title: 'Capped', right: true },
  { key: 'attended', title: 'Attended', right: true },
  { key: 'excused', title: 'Excused', right: true },
  { key: 'makeUp', title: 'Make-up', right: true },
  { key: 'credited', title: 'Credited', right: true },
  { key: 'pending', title: 'Pending', right: true },
  { key: 'autoOut', title: 'Auto out', right: true },
];
/** The minutes columns, each with the figure it prints for a day or for the totals; blank when 0 where `blankZero`. */
const FIGURES: { key: FigureKey; of: (m: TimeCardTotals) => number; blankZero?: true }[] = [
  { key: 'scheduled', of: (m) => m.scheduledMinutes },
  { key: 'raw', of: (m) => m.rawMinutes },
  { key: 'rounded', of: (m) => m.roundedMinutes },
  { key: 'deducted', of: (m) => m.deductedMinutes, blankZero: true },
  { key: 'capped', of: (m) => m.cappedMinutes, blankZero: true },
  { key: 'attended', of: (m) => m.attendedMinutes },
  { key: 'excused', of: (m) => m.excusedMinutes, blankZero: true },
  { key: 'makeUp', of: (m) => m.makeUpMinutes, blankZero: true },
  { key: 'credited', of: (m) => m.creditedMinutes },
  { key: 'pending', of: (m) => m.pendingExceptionMinutes, blankZero: true },
  { key: 'autoOut', of: (m) => m.autoCheckOutMinutes, blankZero: true },
];
const figureCells = (m: TimeCardTotals) =>
  Object.fromEntries(FIGURES.map((f) => [f.key, [f.blankZero && f.of(m) === 0 ? '' : String(f.of(m))]])) as Record<FigureKey, string[]>;
const TIME_CLOCK_NOTE =
  'Minutes. Raw: the punches as recorded, inside the class times. Rounded: after the grace minutes, rounding and the missed-punch rule of the program. ' +
  'Deducted: the meal deduction. Capped: over the daily or weekly cap, kept and shown but not counted. Attended = Rounded − Deducted − Capped. ' +
  'Pending: minutes of meetings without a check-out, not counted until an exception is approved. Auto out: of Attended, minutes credited to the class end for a missing check-out, for review.';

/** The card as a PDF (a few pages a month; two years fit in memory), compressed. */
export async function renderTimeCard(card: TimeCard, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const name = `${card.student.firstName} ${card.student.lastName}`;
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: 'landscape',
    margin: PAGE.margin,
    bufferPages: true,
    compress: opts.compress ?? true,
    info: {
      Title: printable(`Time card — ${name} — ${card.from} to ${card.to}`),
      ...(card.schoolName ? { Author: printable(card.schoolName) } : {}),
      Subject: 'Clock-hour time card',
    },
  });
  useDocumentFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  // Every string goes through a cut to the width it is given, so nothing runs into its neighbour or off the page.
  const text = (s: string, x: number, y: number, o: PDFKit.Mixins.TextOptions & { font?: string; size?: number; width: number }) => {
    doc.font(o.font ?? FONT).fontSize(o.size ?? table.size);
    doc.text(clipText(doc, s, o.width), x, y, { lineBreak: false, ...o });
  };
  const rule = (y: number, weight = 0.5) =>
    doc
      .moveTo(left, y)
      .lineTo(left + table.width, y)
      .lineWidth(weight)
      .strokeColor('#444')
      .stroke();

  const dayCells = card.days.map((d): Record<Key, string[]> => {
    const lines = d.lines.length > 0 ? d.lines : [{ course: '', inOut: '', status: '' }];
    return {
      date: [`${WEEKDAYS[dayOfWeek(d.date)]} ${d.date}`],
      course: lines.map((l) => l.course),
      inOut: lines.map((l) => l.inOut),
      status: lines.map((l) => l.status),
      // A day's excused credited minutes do not show here: the per-day columns are the ledger's own.
      ...figureCells({ ...d, excusedCreditedMinutes: 0, excusedUncreditedMinutes: 0 }),
    };
  });
  // The table's last row: each column's sum over the days shown (the same days as the totals below).
  const totalCells: Record<Key, string[]> = { date: ['Totals'], course: [''], inOut: [''], status: [''], ...figureCells(card.totals) };
  const columnCells = Object.fromEntries(COLUMNS.map((c) => [c.key, dayCells.flatMap((d) => d[c.key])])) as Record<Key, string[]>;
  const table = await fitTable(doc, COLUMNS, columnCells, { left, width: TABLE_WIDTH, sizes: [8, 7.5, 7], boldCells: totalCells });

  let y = PAGE.margin;
  const header = (withTable: boolean) => {
    y = drawHeading(doc, { schoolName: card.schoolName, title: TIME_CARD_TITLE, left, top: PAGE.margin, width: TABLE_WIDTH }) + 2;
    const sis = card.student.sisStudentId ? `SIS id ${card.student.sisStudentId}` : `Muster id ${card.student.id}`;
    const half = TABLE_WIDTH / 2;
    const pairs = [
      [`Student: ${name} (${sis})`, `Program: ${card.programName ?? 'none'}`],
      [`Dates: ${card.from} to ${card.to}`, `Start: ${card.startDate ?? 'not started'} · times in ${card.timeZone}`],
    ];
    for (const [first, second] of pairs as [string, string][]) {
      // Two to a line where both fit their half; a long name takes the line for itself.
      doc.font(FONT).fontSize(9);
      if (doc.widthOfString(printable(first)) <= half - 8 && doc.widthOfString(printable(second)) <= half) {
        text(first, left, y, { size: 9, width: half - 8 });
        text(second, left + half, y, { size: 9, width: half });
      } else {
        text(first, left, y, { size: 9, width: TABLE_WIDTH });
        y += 12;
        text(second, left, y, { size: 9, width: TABLE_WIDTH });
      }
      y += 12;
    }
    y += 4;
    if (withTable) tableHeader();
  };
  const tableHeader = () => {
    rule(y - 2, 1);
    for (const c of table.columns) text(c.title, c.x + CELL_PAD, y + 1, { font: BOLD, width: c.width - 2 * CELL_PAD, align: c.right ? 'right' : 'left' });
    y += LINE + 3;
    rule(y - 2, 0.75);
  };
  const ensure = (height: number, withTable: boolean) => {
    if (y + height <= BODY_BOTTOM) return;
    doc.addPage();
    header(withTable);
  };

  header(true);
  if (card.days.length === 0) {
    text('Nothing was scheduled, recorded or made up in these dates.', left + CELL_PAD, y + 2, { width: TABLE_WIDTH - CELL_PAD });
    y += LINE + 4;
  }
  for (const cells of dayCells) {
    const height = cells.course.length * LINE + 3;
    ensure(height, true);
    for (const c of table.columns) {
      const width = c.width - 2 * CELL_PAD;
      cells[c.key].forEach((s, i) => text(s, c.x + CELL_PAD, y + 1 + i * LINE, { width, align: c.right ? 'right' : 'left' }));
    }
    y += height;
    doc
      .moveTo(left, y - 1)
      .lineTo(left + table.width, y - 1)
      .lineWidth(0.25)
      .strokeColor('#bbb')
      .stroke();
  }
  rule(y - 1, 1);
  ensure(LINE + 3, true);
  for (const c of table.columns)
    text(totalCells[c.key][0]!, c.x + CELL_PAD, y + 1, { font: BOLD, width: c.width - 2 * CELL_PAD, align: c.right ? 'right' : 'left' });
  y += LINE + 3;
  rule(y - 1, 1);
  y += 6;

  const legendHeight = doc.font(FONT).fontSize(7).heightOfString(TIME_CLOCK_NOTE, { width: TABLE_WIDTH });
  ensure(legendHeight + 4, false);
  doc.font(FONT).fontSize(7).text(TIME_CLOCK_NOTE, left, y, { width: TABLE_WIDTH });
  y += legendHeight + 4;

  if (card.days.some((d) => d.lines.some((l) => l.status.endsWith(CORRECTED_MARK)))) {
    const height = doc.font(FONT).fontSize(7).heightOfString(CORRECTED_NOTE, { width: TABLE_WIDTH });
    ensure(height + 4, false);
    doc.font(FONT).fontSize(7).text(CORRECTED_NOTE, left, y, { width: TABLE_WIDTH });
    y += height + 8;
  }

  // Totals of the dates shown, then where the student stands.
  const t = card.totals;
  const totalRows: [string, number][] = [
    ['Scheduled', t.scheduledMinutes],
    ['Raw punches, inside the classes', t.rawMinutes],
    ['Rounded (grace, rounding, missed-punch rule)', t.roundedMinutes],
    ['Deducted (meal)', t.deductedMinutes],
    ['Capped (over the daily or weekly cap; not counted)', t.cappedMinutes],
    ['Attended (rounded − deducted − capped)', t.attendedMinutes],
    ['Excused, credited (within the cap)', t.excusedCreditedMinutes],
    ['Excused, not credited (over the cap; to be made up)', t.excusedUncreditedMinutes],
    ['Make-up', t.makeUpMinutes],
    ['Credited (attended + make-up + excused within the cap)', t.creditedMinutes],
    ['Pending an exception (a missing check-out; not counted)', t.pendingExceptionMinutes],
    ['Auto check-out (of attended; for review)', t.autoCheckOutMinutes],
  ];
  const standing = standingLines(card);
  // Totals, standing and signatures stay together on one page: a signature alone on the last page signs nothing.
  ensure(13 + totalRows.length * 11 + 8 + standing.length * 11 + 50, false);
  // The figures' columns start after the longest label.
  const labels = Math.max(...totalRows.map(([label]) => doc.font(FONT).fontSize(9).widthOfString(label))) + 12;
  text(`Totals, ${card.from} to ${card.to}`, left, y, { font: BOLD, size: 9, width: labels });
  text('h:mm', left + labels, y, { font: BOLD, size: 9, width: 60, align: 'right' });
  text('minutes', left + labels + 60, y, { font: BOLD, size: 9, width: 70, align: 'right' });
  y += 13;
  for (const [label, minutes] of totalRows) {
    text(label, left, y, { size: 9, width: labels });
    text(hoursMinutes(minutes), left + labels, y, { size: 9, width: 60, align: 'right' });
    text(String(minutes), left + labels + 60, y, { size: 9, width: 70, align: 'right' });
    y += 11;
  }
  y += 8;
  for (const line of standing) {
    text(line, left, y, { size: 9, width: TABLE_WIDTH });
    y += 11;
  }

  // Signatures: the student's and the school official's, each with a date.
  y += 30;
  const signature = (x: number, label: string) => {
    doc
      .moveTo(x, y)
      .lineTo(x + 170, y)
      .moveTo(x + 185, y)
      .lineTo(x + 255, y)
      .lineWidth(0.75)
      .strokeColor('#000')
      .stroke();
    text(label, x, y + 3, { size: 8, width: 170 });
    text('Date', x + 185, y + 3, { size: 8, width: 70 });
  };
  signature(left, 'Student signature');
  signature(left + 285, 'School official signature');
  y += 14;

  // Footers last, when the page count is known; bottom margin lifted so the footer adds no page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    const fy = PAGE.height - PAGE.margin - 8;
    text(`Generated ${card.generatedAt} (${card.timeZone}) · ${name}, ${card.from} to ${card.to}`, left, fy, { size: 7, width: TABLE_WIDTH - 60 });
    text(`Page ${i - range.start + 1} of ${range.count}`, left + TABLE_WIDTH - 60, fy, { size: 7, width: 60, align: 'right' });
  }
  doc.end();
  return done;
}

/** Where the student stands at the end of the card's dates: since their start, and the payment period. */
function standingLines(card: TimeCard): string[] {
  const s = card.sinceStart;
  const lines = [
    `Since the student's start${card.startDate ? ` (${card.startDate})` : ''} through ${card.to}: ${hoursMinutes(s.creditedMinutes)} credited of ${hoursMinutes(s.scheduledMinutes)} scheduled` +
      (s.attendancePercent != null ? ` (${s.attendancePercent}%)` : ''),
  ];
  const periods = card.paymentPeriods;
  const current = periods.find((p) => p.status !== 'completed');
  if (periods.length === 0) lines.push('Payment period: none (the student has no program with payment periods).');
  else if (!current) lines.push(`Payment periods: all ${periods.length} completed, the last on ${periods.at(-1)!.completedOn}.`);
  else {
    const weeks = current.weeksEndOn ? `, its weeks end ${current.weeksEndOn}` : '';
    lines.push(
      `Payment period ${current.number} of ${periods.length} (${current.startHours}–${current.endHours} h, ${current.weeks} weeks), ${current.status.replace('_', ' ')} as of ${card.to}:`,
      `    ${hoursMinutes(current.creditedMinutes)} credited, ${current.hoursRemaining} hours remaining${weeks}.`,
    );
  }
  return lines;
}
