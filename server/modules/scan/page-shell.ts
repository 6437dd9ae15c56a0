// What every scan page is built from: the document with its CSS and icons, the labelled fields, and the links the views share.
import { LANGUAGE_NAMES, STUDENT_LANGUAGES, type StudentLanguage, type StudentTextKey } from '../../../common/student-texts.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import type { StudentT } from '../../lib/student-i18n.ts';

const CSS = `*{box-sizing:border-box}[hidden]{display:none!important}
body{margin:0;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:28rem;margin:0 auto;padding:1rem 1rem 2.5rem}a{color:#1d4ed8}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;margin-bottom:1rem}
.brand{display:inline-flex;align-items:center;gap:.625rem;margin:0;font-size:1.125rem;font-weight:700}.brand svg{width:2rem;height:2rem}
nav{display:flex;font-size:.9375rem}nav a,nav span{display:inline-flex;align-items:center;min-height:44px;padding:0 .625rem}nav span{font-weight:600}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.25rem;box-shadow:0 1px 2px #0000000d}
h1{margin:.25rem 0 0;font-size:1.5rem;line-height:1.25;overflow-wrap:anywhere}h1:focus{outline:0}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem}
.eyebrow{margin:0;color:#1d4ed8;font-size:.875rem;font-weight:600}
.pill{margin:0;padding:.25rem .625rem;border-radius:1rem;background:#ecfdf5;color:#065f46;font-size:.8125rem;font-weight:600}
[role=timer]{font-family:ui-monospace,monospace;font-variant-numeric:tabular-nums}
.muted,.hint{margin:0;color:#475569;font-size:.875rem}.hint{margin-top:.375rem;font-size:.8125rem}
dl{display:grid;gap:.375rem;margin:1rem 0 0;padding:.875rem;border-radius:.75rem;background:#f1f5f9;font-size:.875rem}
dl div{display:flex;flex-wrap:wrap;gap:.375rem}dt{font-weight:600}dd{margin:0}
.small{margin:.75rem 0 0;color:#475569;font-size:.8125rem}
.field{margin-top:1rem}label{display:block;color:#1e293b;font-size:.875rem;font-weight:600}
input{display:block;width:100%;height:3rem;margin-top:.375rem;padding:0 .875rem;border:1px solid #64748b;border-radius:.75rem;background:#fff;color:inherit;font:inherit}
input:focus{border-color:#1d4ed8;outline:2px solid #1d4ed8;outline-offset:-1px}input[aria-invalid=true]{border-color:#b91c1c}
.check{display:flex;align-items:center;gap:.625rem;min-height:44px;margin-top:.75rem;font-weight:400}.check input{width:1.25rem;height:1.25rem;margin:0;accent-color:#1d4ed8}
.error{margin:.375rem 0 0;color:#b91c1c;font-size:.875rem}
.alert{margin:1rem 0 0;padding:.75rem .875rem;border:1px solid #fecaca;border-radius:.75rem;background:#fef2f2;color:#991b1b;font-size:.875rem}
button{display:flex;align-items:center;justify-content:center;gap:.5rem;width:100%;min-height:3rem;margin-top:1.25rem;padding:.5rem 1rem;border:0;border-radius:.75rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600}
button:disabled{opacity:.55}.secondary{width:auto;margin:0;border:1px solid #64748b;background:#fff;color:#1e293b}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.result{text-align:center}.lead{margin:.25rem 0 0;color:#1e293b;font-weight:500}
.icon{display:flex;align-items:center;justify-content:center;width:3.5rem;height:3.5rem;margin:.25rem auto 1rem;border-radius:50%}
.icon svg{width:1.75rem;height:1.75rem;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.ok{background:#ecfdf5;color:#047857}.warn{background:#fffbeb;color:#b45309}.bad{background:#fef2f2;color:#b91c1c}.info{background:#eff6ff;color:#1d4ed8}
.box{margin-top:1.25rem;padding:1rem;border-radius:.75rem;background:#f1f5f9}.box.warn{color:#0f172a;outline:1px solid #fcd34d}
.big{margin:0;font-size:1.125rem;font-weight:600}.box p+p{margin:.25rem 0 0;color:#334155;font-size:.875rem}
.hours{margin-top:1.25rem;padding-top:1rem;border-top:1px solid #e2e8f0;text-align:left}
a.button{display:flex;align-items:center;justify-content:center;min-height:3rem;margin-top:.75rem;padding:.5rem 1rem;border:1px solid #64748b;border-radius:.75rem;color:#1e293b;font-weight:600;text-decoration:none}
h2{margin:1.25rem 0 .375rem;font-size:1rem}.punches ul{margin:0;padding-left:1.25rem;font-size:.9375rem;font-variant-numeric:tabular-nums}
.notice{margin:1rem 0 0;padding:.75rem .875rem;border:1px solid #a7f3d0;border-radius:.75rem;background:#ecfdf5;color:#065f46;font-size:.875rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem}.row button{flex:1 1 10rem;margin:0}button.alt{border:1px solid #64748b;background:#fff;color:#1e293b}`;

const LOGO =
  '<rect width="32" height="32" rx="8" fill="#1d4ed8"/><path d="M9 22V10l7 7 7-7v12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>';
// The icon inline: a favicon file would be one more request on a slow network.
const FAVICON = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${LOGO}</svg>`)}`;

// Lucide's shapes (ISC), drawn by the CSS above.
const ICONS = {
  check: '<circle cx="12" cy="12" r="10"/><path d="m16 9-5.5 5.5L8 12"/>',
  timerOff: '<path d="M10 2h4M4.6 11a8 8 0 0 0 1.7 8.7 8 8 0 0 0 8.7 1.7M7.4 7.4a8 8 0 0 1 10.3 1 8 8 0 0 1 .9 10.2M2 2l20 20M12 12v-2"/>',
  searchX: '<path d="m13.5 8.5-5 5m0-5 5 5M21 21l-4.3-4.3"/><circle cx="11" cy="11" r="8"/>',
  user: '<circle cx="12" cy="8" r="5"/><path d="M20 21a8 8 0 0 0-16 0"/>',
  clock: '<circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/>',
  logOut: '<path d="m16 17 5-5-5-5M21 12H9M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4"/>',
  key: '<path d="M2.586 17.414A2 2 0 0 0 2 18.828V21a1 1 0 0 0 1 1h3a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h1a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h.172a2 2 0 0 0 1.414-.586l.814-.814a6.5 6.5 0 1 0-4-4z"/><circle cx="16.5" cy="7.5" r=".5"/>',
};
export const icon = (name: keyof typeof ICONS, tone: 'ok' | 'warn' | 'bad' | 'info') =>
  `<span class="icon ${tone}" aria-hidden="true"><svg viewBox="0 0 24 24">${ICONS[name]}</svg></span>`;

/** One page: what the card shows and the tab's title. */
export type ScanView = { title: string; body: string };

/** A text of the catalogue with parts that are HTML already (slots): the rest is escaped. */
export function tHtml(t: StudentT, key: StudentTextKey, parts: Record<string, string>): string {
  const names = Object.keys(parts);
  let out = e(t(key, Object.fromEntries(names.map((name, i) => [name, `\u0001${i}\u0001`]))));
  names.forEach((name, i) => (out = out.replace(`\u0001${i}\u0001`, parts[name]!)));
  return out;
}

// ---- Fields ----

type FieldSpec = {
  name: string;
  /** The element's id when it is not the name (a second code field on the page). */
  id?: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  /** Further attributes, written as they are (constants of this file only). */
  attrs: string;
};

/** A labelled input 48 px tall, 16 px text (smaller makes iOS zoom in on focus), its hint and its error. */
export function field(f: FieldSpec): string {
  const id = f.id ?? f.name;
  const described = [f.hint ? `${id}-hint` : '', f.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    `<div class="field"><label for="${id}">${e(f.label)}</label><input id="${id}" name="${f.name}" ${f.attrs} required` +
    `${f.value ? ` value="${e(f.value)}"` : ''}${described ? ` aria-describedby="${described}"` : ''}${f.error ? ' aria-invalid="true"' : ''}>` +
    `${f.hint ? `<p class="hint" id="${id}-hint">${e(f.hint)}</p>` : ''}${f.error ? `<p class="error" id="${id}-error">${e(f.error)}</p>` : ''}</div>`
  );
}

export const CODE_ATTRS = 'inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7"';

/** The code on the classroom screen, asked when the phone holds no valid pass. */
export const screenCodeField = (t: StudentT, error?: string, id?: string) =>
  field({ name: 'code', id, label: t('screenCodeLabel'), hint: t('screenCodeHint'), error, attrs: CODE_ATTRS });

/** The four fields of the form, in SPEC's order, as the JSON API names them. */
export const DETAIL_FIELDS = [
  { name: 'studentId', key: 'studentIdLabel', attrs: 'autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="100"' },
  { name: 'firstName', key: 'firstNameLabel', attrs: 'autocomplete="given-name" maxlength="100"' },
  { name: 'lastName', key: 'lastNameLabel', attrs: 'autocomplete="family-name" maxlength="100"' },
  { name: 'email', key: 'scanEmailLabel', attrs: 'type="email" inputmode="email" autocomplete="email" autocapitalize="none" maxlength="320"' },
] as const;
export type DetailName = (typeof DETAIL_FIELDS)[number]['name'];
export type FormErrors = Partial<Record<DetailName | 'code', string>>;

export const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;

/** The link to ask for a correction of a punch missed at an earlier class (the missed-punch page, in the page's language). */
export const missedPunchLink = (t: StudentT, language: StudentLanguage) =>
  `<p class="small"><a href="${e(language === 'en' ? MISSED_PUNCH_PATH : `${MISSED_PUNCH_PATH}?lang=${language}`)}">${e(t('missedPunchLink'))}</a></p>`;
export const MISSED_PUNCH_PATH = '/attendance/missed-punch';

type PageShell = { language: StudentLanguage; t: StudentT; switchHref: (language: StudentLanguage) => string; script: string | null; extras?: string };

/** The whole document: inline CSS, the language switch (a link: it works without script), the card, and the script last. */
export function scanDocument(view: ScanView, shell: PageShell): string {
  const { language, t } = shell;
  const languages = STUDENT_LANGUAGES.map((l) =>
    l === language
      ? `<span aria-current="true" lang="${l}">${e(LANGUAGE_NAMES[l])}</span>`
      : `<a href="${e(shell.switchHref(l))}" lang="${l}" hreflang="${l}">${e(LANGUAGE_NAMES[l])}</a>`,
  ).join('');
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="theme-color" content="#0f172a"><meta name="robots" content="noindex"><link rel="icon" href="${FAVICON}"><title>${e(view.title)} · Muster</title>` +
    `<style>${CSS}</style>${shell.script ? `<script type="module" src="${e(shell.script)}"></script>` : ''}</head>` +
    `<body><main><header><p class="brand"><svg aria-hidden="true" viewBox="0 0 32 32">${LOGO}</svg>Muster</p><nav aria-label="${e(t('language'))}">${languages}</nav></header>` +
    `<div class="card" id="scan-card">${view.body}</div></main>${shell.script ? (shell.extras ?? '') : ''}</body></html>`
  );
}
