import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { STUDENT_TEXTS } from '../common/student-texts.ts';
import { newPage, screenshot, seedClassNow, seriousViolations, signIn, useBrowserAndServer, visible } from './support.ts';

// The projector view read from the back of a room (docs/projector-readability.md):
// on the smallest usual projected image (2 m wide) at 10 m, the code's digits must be 5 cm tall
// (1/200 of the distance) and the QR's modules 2 cm (1 cm resolves at about 5 m; twice the
// distance, twice the size). Both are measured as rendered, at 1080p and 720p.

const IMAGE_WIDTH_MM = 2000;
const DIGIT_MIN_MM = 10_000 / 200;
const MODULE_MIN_MM = 20;
// The smallest digit height of the monospace fonts the page may get, as a share of the font size
// (Courier New's 0.57 aside, they measure 0.63–0.73): what the font size alone must guarantee.
const DIGIT_SHARE = 0.6;

const env = useBrowserAndServer();

type Measured = {
  qrSide: number;
  modules: number;
  quietZone: number;
  fontSize: number;
  digitHeight: number;
  codeRight: number;
  codeLines: number;
  scrolls: boolean;
};

/** What the back row sees: the QR's side and module count, the code's font size and the height of its digits as drawn. */
async function measure(page: Page, qrName: string): Promise<Measured> {
  const qr = page.getByRole('img', { name: qrName });
  await visible(qr);
  const box = (await qr.boundingBox())!;
  const fromQr = await qr.evaluate((svg) => {
    const modules = Number(svg.getAttribute('data-modules'));
    // The first dark module drawn: its distance from the edge is the quiet zone.
    const moves = [...(svg.querySelector('path')!.getAttribute('d') ?? '').matchAll(/M(\d+) (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const quietZone = Math.min(...moves.map(([x, y]) => Math.min(x!, y!)));
    return { modules, quietZone };
  });
  const code = page.locator('[aria-labelledby="projector-code"]');
  await page.waitForFunction(() => /^\d{3} \d{3}$/.test(document.querySelector('[aria-labelledby="projector-code"]')?.textContent ?? ''));
  const fromCode = await code.evaluate((el) => {
    const style = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const digits = ctx.measureText('0123456789');
    const rect = el.getBoundingClientRect();
    const fontSize = parseFloat(style.fontSize);
    return {
      fontSize,
      digitHeight: digits.actualBoundingBoxAscent + digits.actualBoundingBoxDescent,
      codeRight: rect.right,
      codeLines: Math.round(rect.height / fontSize),
    };
  });
  // The view is a fixed layer that scrolls itself when it does not fit.
  const scrolls = await page.evaluate(() => {
    const layer = document.querySelector('h1')!.closest('.fixed')!;
    return layer.scrollHeight > layer.clientHeight || layer.scrollWidth > layer.clientWidth;
  });
  return { qrSide: box.width, ...fromQr, ...fromCode, scrolls };
}

describe('projector view', () => {
  it('shows a QR and a code large enough for the back of the room, at 1080p and 720p', async () => {
    const { browser, server } = env;
    const instructor = await server.createUser('instructor', { firstName: 'Rosa', lastName: 'Projector' });
    const cls = await seedClassNow(server.db, instructor.email, [
      { sisStudentId: 'STU-2001', firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@student.example' },
    ]);
    const { context, page, errors } = await newPage(browser, server.baseUrl, { width: 1920, height: 1080 });
    try {
      await signIn(page, instructor);
      const started = await page.request.post('/api/qr-sessions', { data: { scheduleId: cls.scheduleId } });
      expect(started.status()).toBe(201);
      const { sessionId } = (await started.json()) as { sessionId: string };
      await page.goto(`/attendance/present?session=${sessionId}`);
      await visible(page.getByRole('heading', { level: 1, name: cls.courseName }));
      const qrName = `QR code to check in to ${cls.courseName}`;

      for (const viewport of [
        { width: 1920, height: 1080 },
        { width: 1280, height: 720 },
      ]) {
        await page.setViewportSize(viewport);
        const mmPerPx = IMAGE_WIDTH_MM / viewport.width;
        const m = await measure(page, qrName);
        const minimum = { modulePx: MODULE_MIN_MM / mmPerPx, digitPx: DIGIT_MIN_MM / mmPerPx };
        const at = `${viewport.width}×${viewport.height}`;
        console.log(
          `${at}: QR ${m.qrSide.toFixed(0)} px, ${m.modules} modules → ${(m.qrSide / m.modules).toFixed(1)} px each (min ${minimum.modulePx.toFixed(1)}); ` +
            `code ${m.fontSize.toFixed(1)} px font (min ${(minimum.digitPx / DIGIT_SHARE).toFixed(1)}), digits ${m.digitHeight.toFixed(1)} px tall (min ${minimum.digitPx.toFixed(1)})`,
        );
        expect(m.quietZone, at).toBeGreaterThanOrEqual(4);
        expect(m.qrSide / m.modules, `${at}: module size`).toBeGreaterThanOrEqual(minimum.modulePx);
        expect(m.fontSize, `${at}: code font size`).toBeGreaterThanOrEqual(minimum.digitPx / DIGIT_SHARE);
        expect(m.digitHeight, `${at}: digit height as drawn`).toBeGreaterThanOrEqual(minimum.digitPx);
        // All of it on the one screen: nothing to scroll to, the code on one line.
        expect(m.codeRight, at).toBeLessThanOrEqual(viewport.width);
        expect(m.codeLines, at).toBe(1);
        expect(m.scrolls, at).toBe(false);
        await screenshot(page, `projector-${viewport.height}p`);
      }
      // The instructions in English and, marked as Spanish for screen readers, in Spanish.
      for (const key of ['projectorScan', 'projectorCodeChanges'] as const) {
        await visible(page.getByText(STUDENT_TEXTS.en[key], { exact: true }));
        await visible(page.locator('[lang="es"]').getByText(STUDENT_TEXTS.es[key], { exact: true }));
      }
      await visible(page.locator('[lang="es"]').getByText(STUDENT_TEXTS.es.projectorCantScanBefore, { exact: false }));
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
