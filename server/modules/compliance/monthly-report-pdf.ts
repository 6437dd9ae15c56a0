import PDFDocument from 'pdfkit';
import { printable } from '../../lib/pdf-text.ts';
import type { MonthlyHoursRow } from './service.ts';

/**
 * The monthly hours report as state boards ask for it (issue 13): the school, the month, one line
 * per student with the month's and the cumulative hours, totals, and a certification line for the
 * school official. Landscape letter, the header repeated on each page.
 */
export type MonthlyReport = { schoolName: string; month: string; programName: string | null; generatedAt: string; rows: MonthlyHoursRow[] };

const PAGE = { width: 792, height: 612, margin: 36 };
const COLUMNS: { key: keyof MonthlyHoursRow; title: string; width: number; right?: boolean }[] = [
  { key: 'sisStudentId', title: 'SIS id', width: 70 },
  { key: 'lastName', title: 'Last name', width: 95 },
  { key: 'firstName', title: 'First name', width: 85 },
  { key: 'programName', title: 'Program', width: 110 },
  { key: 'scheduledHours', title: 'Scheduled', width: 52, right: true },
  { key: 'attendedHours', title: 'Attended', width: 52, right: true },
  { key: 'makeUpHours', title: 'Make-up', width: 48, right: true },
  { key: 'creditedHours', title: 'Credited', width: 50, right: true },
  { key: 'cumulativeCreditedHours', title: 'Cumulative', width: 58, right: true },
  { key: 'attendancePercent', title: 'Att. %', width: 40, right: true },
  { key: 'status', title: 'Status', width: 50 },
  { key: 'lastDateOfAttendance', title: 'LDA', width: 60 },
];
const WIDTH = COLUMNS.reduce((n, c) => n + c.width, 0);

const cell = (v: string | number | null) => (v == null ? '' : String(v));
const sum = (rows: MonthlyHoursRow[], key: keyof MonthlyHoursRow) => Math.round(rows.reduce((n, r) => n + (Number(r[key]) || 0), 0) * 100) / 100;

export async function renderMonthlyReport(report: MonthlyReport): Promise<Buffer> {
  const doc = new PDFDocument({ size: [PAGE.width, PAGE.height], margin: PAGE.margin, info: { Title: `Monthly hours report ${report.month}`, Author: printable(report.schoolName) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = PAGE.margin;
  const bottom = PAGE.height - PAGE.margin - 90;
  let y = PAGE.margin;
  const text = (s: string, x: number, at: number, o: { width?: number; align?: 'left' | 'right'; bold?: boolean; size?: number } = {}) =>
    doc.font(o.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(o.size ?? 8).text(printable(s), x, at, { lineBreak: false, width: o.width, align: o.align, ellipsis: true });
  const row = (values: (string | number | null)[], bold = false) => {
    let x = left;
    COLUMNS.forEach((c, i) => {
      text(cell(values[i] ?? null), x + 2, y, { width: c.width - 4, align: c.right ? 'right' : 'left', bold });
      x += c.width;
    });
    y += 12;
  };
  const header = () => {
    y = PAGE.margin;
    text(report.schoolName, left, y, { bold: true, size: 14 });
    text('Monthly clock-hour report', left, y + 2, { bold: true, size: 11, width: WIDTH, align: 'right' });
    y += 20;
    text(`Month: ${report.month} · Program: ${report.programName ?? 'all programs'} · Printed ${report.generatedAt}`, left, y, { size: 9 });
    y += 16;
    row(COLUMNS.map((c) => c.title), true);
    doc.moveTo(left, y - 2).lineTo(left + WIDTH, y - 2).lineWidth(0.5).stroke();
  };
  header();
  for (const r of report.rows) {
    if (y > bottom) {
      doc.addPage();
      header();
    }
    row(COLUMNS.map((c) => r[c.key]));
  }
  doc.moveTo(left, y).lineTo(left + WIDTH, y).lineWidth(0.5).stroke();
  y += 4;
  row(['', `${report.rows.length} students`, '', 'Totals', sum(report.rows, 'scheduledHours'), sum(report.rows, 'attendedHours'), sum(report.rows, 'makeUpHours'), sum(report.rows, 'creditedHours'), sum(report.rows, 'cumulativeCreditedHours'), '', '', ''], true);
  if (y > bottom) {
    doc.addPage();
    y = PAGE.margin;
  }
  y += 24;
  text('I certify that the hours above are true and correct according to the school’s attendance records.', left, y, { size: 9 });
  y += 36;
  for (const [label, x] of [['School official (signature)', left], ['Name and title', left + 250], ['Date', left + 500]] as const) {
    doc.moveTo(x, y).lineTo(x + 220, y).lineWidth(0.5).stroke();
    text(label, x, y + 4, { size: 8 });
  }
  doc.end();
  return done;
}
