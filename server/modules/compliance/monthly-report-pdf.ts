import PDFDocument from 'pdfkit';
import { CELL_PAD, clipText, drawHeading, fitTable, type TableColumn } from '../../lib/pdf-layout.ts';
import { PDF_BOLD, PDF_FONT, printable, useDocumentFonts } from '../../lib/pdf-text.ts';
import type { MonthlyHoursRow } from './monthly-hours.ts';
import { sliceYielder } from '../../lib/event-loop-turns.ts';

/**
 * The monthly hours report as state boards ask for it (decision 016): the school, the month, one line
 * per student with the month's and the cumulative hours, totals, and a certification line for the
 * school official. Landscape letter, the header repeated on each page; the columns are laid out to
 * the page's width (decision 045), and Attended + Excused + Make-up = Credited on every line. A second
 * table gives each student's time-clock lines (decision 050): how Attended was counted from the punches.
 */
export type MonthlyReport = {
  /** Null until Settings › System names the school: the report is then titled without it. */
  schoolName: string | null;
  month: string;
  programName: string | null;
  generatedAt: string;
  rows: MonthlyHoursRow[];
};

export const MONTHLY_REPORT_TITLE = 'Monthly clock-hour report';
export const TIME_CLOCK_TABLE_TITLE = 'Time-clock lines of the month (hours): Attended = Rounded − Deducted − Capped';
const PAGE = { width: 792, height: 612, margin: 36 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const SIZES = [8, 7.5, 7];
type Key = keyof MonthlyHoursRow;
const STUDENT_COLUMNS: TableColumn<Key>[] = [
  { key: 'sisStudentId', title: 'SIS id', flex: true },
  { key: 'lastName', title: 'Last name', flex: true },
  { key: 'firstName', title: 'First name', flex: true },
  { key: 'programName', title: 'Program', flex: true },
];
const HOURS_COLUMNS: TableColumn<Key>[] = [
  ...STUDENT_COLUMNS,
  { key: 'scheduledHours', title: 'Scheduled', right: true },
  { key: 'attendedHours', title: 'Attended', right: true },
  { key: 'excusedCreditedHours', title: 'Excused', right: true },
  { key: 'makeUpHours', title: 'Make-up', right: true },
  { key: 'creditedHours', title: 'Credited', right: true },
  { key: 'cumulativeCreditedHours', title: 'Cumulative', right: true },
  { key: 'attendancePercent', title: 'Att. %', right: true },
  { key: 'status', title: 'Status' },
  { key: 'lastDateOfAttendance', title: 'LDA' },
];
// Thirteen figures do not fit one landscape line at a readable size: the time-clock lines get a table of their own.
const TIME_CLOCK_COLUMNS: TableColumn<Key>[] = [
  ...STUDENT_COLUMNS,
  { key: 'rawHours', title: 'Raw', right: true },
  { key: 'roundedHours', title: 'Rounded', right: true },
  { key: 'deductedHours', title: 'Deducted', right: true },
  { key: 'cappedHours', title: 'Capped', right: true },
  { key: 'attendedHours', title: 'Attended', right: true },
  { key: 'pendingExceptionHours', title: 'Pending exception', right: true },
  { key: 'autoCheckOutHours', title: 'Auto check-out', right: true },
];
const NOT_SUMMED: ReadonlySet<Key> = new Set(['attendancePercent']);
const NOTE =
  'Hours are clock hours. Credited = Attended + Excused + Make-up, where Excused is the excused absence time the program credits (within its cap). ' +
  'Cumulative is credited from the student’s start to the end of the month. LDA: last date of attendance.';
const TIME_CLOCK_NOTE =
  'Raw: the punches as recorded, inside the class times. Rounded: after the grace minutes, rounding and the missed-punch rule of the program. ' +
  'Deducted: the meal deduction. Capped: over the daily or weekly cap, kept and shown but not counted. ' +
  'Pending exception: minutes of meetings without a check-out, not counted until an exception is approved. ' +
  'Auto check-out: of Attended, minutes credited to the class end for a missing check-out, for review. ' +
  'Each figure is exact minutes shown as hours to two decimals, so a line may differ by 0.01 from its parts.';

const cell = (v: string | number | null) => (v == null ? '' : String(v));
const sum = (rows: MonthlyHoursRow[], key: Key) => Math.round(rows.reduce((n, r) => n + (Number(r[key]) || 0), 0) * 100) / 100;

export async function renderMonthlyReport(report: MonthlyReport): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    info: { Title: `Monthly hours report ${report.month}`, ...(report.schoolName ? { Author: printable(report.schoolName) } : {}) },
  });
  useDocumentFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const bottom = PAGE.height - PAGE.margin - 100; // room for the totals, the note and the signatures
  let y = PAGE.margin;
  const text = (s: string, x: number, at: number, o: { width?: number; align?: 'left' | 'right'; bold?: boolean; size: number }) =>
    doc
      .font(o.bold ? PDF_BOLD : PDF_FONT)
      .fontSize(o.size)
      .text(printable(s), x, at, { lineBreak: false, width: o.width, align: o.align });
  const wrapped = (s: string, size: number, bold = false) => {
    doc
      .font(bold ? PDF_BOLD : PDF_FONT)
      .fontSize(size)
      .text(printable(s), left, y, { width: CONTENT_WIDTH });
    y += doc.heightOfString(printable(s), { width: CONTENT_WIDTH });
  };
  const pageHeading = () => {
    y = drawHeading(doc, { schoolName: report.schoolName, title: MONTHLY_REPORT_TITLE, left, top: PAGE.margin, width: CONTENT_WIDTH });
    wrapped(`Month: ${report.month} · Program: ${report.programName ?? 'all programs'} · Printed ${report.generatedAt}`, 9);
    y += 6;
  };

  // A report of 2,500 students draws for seconds: in slices, so check-ins are answered meanwhile.
  const pause = sliceYielder();
  /** One table of the report: its students' lines, then its totals in bold; the page heading and its titles on each page. */
  const drawTable = async (columns: TableColumn<Key>[]) => {
    const totals: Record<Key, string> = Object.fromEntries(columns.map((c) => [c.key, ''])) as Record<Key, string>;
    totals.lastName = `${report.rows.length} student${report.rows.length === 1 ? '' : 's'}`;
    totals.programName = 'Totals';
    for (const c of columns) if (c.right && !NOT_SUMMED.has(c.key)) totals[c.key] = String(sum(report.rows, c.key));
    const cells = Object.fromEntries(columns.map((c) => [c.key, report.rows.map((r) => cell(r[c.key]))])) as Record<Key, string[]>;
    const boldCells = Object.fromEntries(columns.map((c) => [c.key, [totals[c.key]]])) as Record<Key, string[]>;
    const table = await fitTable(doc, columns, cells, { left, width: CONTENT_WIDTH, sizes: SIZES, boldCells });
    const lineHeight = table.size + 4;
    // A name or program wider than its column wraps within it (a name on a state report is never cut);
    // the figures' columns are as wide as their widest figure.
    const rowHeight = (values: Record<Key, string>, bold = false) => {
      doc.font(bold ? PDF_BOLD : PDF_FONT).fontSize(table.size);
      const heights = table.columns
        .filter((c) => c.flex && values[c.key])
        .map((c) => doc.heightOfString(printable(values[c.key]), { width: c.width - 2 * CELL_PAD }));
      return Math.max(lineHeight, ...heights.map((h) => h + 3));
    };
    const row = (values: Record<Key, string>, bold = false) => {
      const height = rowHeight(values, bold);
      for (const c of table.columns) {
        const width = c.width - 2 * CELL_PAD;
        doc.font(bold ? PDF_BOLD : PDF_FONT).fontSize(table.size);
        if (c.flex) doc.text(printable(values[c.key]), c.x + CELL_PAD, y, { width });
        else text(clipText(doc, values[c.key], width), c.x + CELL_PAD, y, { width, align: c.right ? 'right' : 'left', bold, size: table.size });
      }
      y += height;
    };
    const rule = (at: number) =>
      doc
        .moveTo(left, at)
        .lineTo(left + table.width, at)
        .lineWidth(0.5)
        .stroke();
    const titles = () => {
      row(Object.fromEntries(columns.map((c) => [c.key, c.title])) as Record<Key, string>, true);
      rule(y - 2);
    };
    titles();
    for (const r of report.rows) {
      await pause();
      const values = Object.fromEntries(columns.map((c) => [c.key, cell(r[c.key])])) as Record<Key, string>;
      if (y + rowHeight(values) > bottom) {
        doc.addPage();
        pageHeading();
        titles();
      }
      row(values);
    }
    rule(y);
    y += 4;
    row(totals, true);
  };
  /** A new page when `height` does not fit below y. */
  const room = (height: number) => {
    if (y + height <= PAGE.height - PAGE.margin) return;
    doc.addPage();
    y = PAGE.margin;
  };

  pageHeading();
  await drawTable(HOURS_COLUMNS);
  y += 6;
  room(20);
  wrapped(NOTE, 7);

  // The time-clock table starts on the page when its title, titles and a line or two fit there.
  y += 14;
  if (y + 60 > bottom) {
    doc.addPage();
    pageHeading();
  }
  wrapped(TIME_CLOCK_TABLE_TITLE, 9, true);
  y += 4;
  await drawTable(TIME_CLOCK_COLUMNS);
  y += 6;
  room(30);
  wrapped(TIME_CLOCK_NOTE, 7);

  y += 12;
  room(60);
  wrapped('I certify that the hours above are true and correct according to the school’s attendance records.', 9);
  y += 30;
  for (const [label, x] of [
    ['School official (signature)', left],
    ['Name and title', left + 250],
    ['Date', left + 500],
  ] as const) {
    doc
      .moveTo(x, y)
      .lineTo(x + 220, y)
      .lineWidth(0.5)
      .stroke();
    text(label, x, y + 4, { size: 8 });
  }
  doc.end();
  return done;
}
