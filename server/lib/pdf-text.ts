// Text for the PDF documents (time cards, the monthly hours report), which use pdfkit's built-in fonts.

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const winAnsi = (c: string) => (c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || WIN_ANSI_EXTRA.has(c);

/**
 * The built-in PDF fonts draw only the Windows-1252 characters; anything else would print as a
 * wrong letter. Letters with other accents lose their accents (Nguyễn prints as Nguyen), the rest
 * become '?', so a name is never silently turned into a different one.
 */
export function printable(text: string): string {
  let out = '';
  for (const c of text) {
    if (winAnsi(c)) {
      out += c;
      continue;
    }
    const composed = [...c.normalize('NFD')].filter((p) => !/\p{M}/u.test(p)).join('');
    out += composed !== '' && [...composed].every(winAnsi) ? composed : '?';
  }
  return out;
}
