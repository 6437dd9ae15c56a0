/**
 * The scan pages' one script (docs/decisions/028). The server renders every page whole and its forms
 * work without this; with it, the countdown runs and turns into Session Expired at zero, the button
 * waits until the fields are filled, the code on the screen is asked when the pass runs out, and the
 * form goes through POST /api/attendance/submit with no reload. Every word it shows comes from the
 * page (data-* attributes, <template>s, the answers' translations): it knows no language.
 * It imports nothing: a module shared with the admin app would become a chunk this page downloads.
 */

type Answer = {
  message?: string;
  code?: string;
  action?: string;
  status?: string;
  courseName?: string;
  scanInTime?: string | null;
  scanOutTime?: string | null;
  minutesAttended?: number | null;
  breaks?: { endedAt: string | null }[];
};

const DETAILS = ['studentId', 'firstName', 'lastName', 'email'] as const;
type Details = Record<(typeof DETAILS)[number], string>;
/** Where "Remember me on this phone" keeps the details (the key the earlier scan page used). */
const REMEMBERED = 'muster.scan.student';

const one = <T extends Element>(selector: string, root: ParentNode = document) => root.querySelector<T>(selector);
const card = one<HTMLElement>('#scan-card')!;

// The page's times count from when the server sent it, on this phone's clock: the phone's own
// clock may be minutes off, the time since the answer arrived is not.
const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
const sentAt = performance.timeOrigin + (navigation?.responseStart ?? 0);
const deadline = (ms: string | undefined) => (ms ? sentAt + Number(ms) : null);
/** SPEC §4's mm:ss (common/countdown.ts on the server). */
function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

let ticking: ReturnType<typeof setInterval> | undefined;

/** Replace the card with one of the views the server sent as templates, keeping the variants in `cases`. */
function show(view: string, cases: string[] = [], values: Record<string, string> = {}): void {
  clearInterval(ticking);
  const template = one<HTMLTemplateElement>(`#scan-${view}`);
  if (!template) return location.reload();
  const content = template.content.cloneNode(true) as DocumentFragment;
  // A variant shows when any of its keys (data-if="a b") is among the cases.
  content
    .querySelectorAll<HTMLElement>('[data-if]')
    .forEach((el) => (el.dataset.if!.split(' ').some((k) => cases.includes(k)) ? el.removeAttribute('data-if') : el.remove()));
  content.querySelectorAll<HTMLElement>('[data-slot]').forEach((el) => {
    const value = values[el.dataset.slot!] ?? '';
    if (el instanceof HTMLInputElement) el.value = value;
    else el.replaceWith(value);
  });
  card.replaceChildren(content);
  document.title = `${template.dataset.title} · Muster`;
  // The new view replaces the one the student was on: its heading is read out.
  one<HTMLElement>('h1', card)?.focus();
}

/** The details "Remember me on this phone" kept; storage can be refused (private mode) or hold junk. */
function remembered(): Partial<Details> | null {
  try {
    return JSON.parse(localStorage.getItem(REMEMBERED) ?? 'null') as Partial<Details> | null;
  } catch {
    return null;
  }
}

function enhance(form: HTMLFormElement): void {
  const button = one<HTMLButtonElement>('button[type=submit]', form)!;
  const label = button.textContent ?? '';
  let busy = false;

  // SPEC §5: the button waits for every field; a code is its six digits.
  const ready = () =>
    [...form.querySelectorAll<HTMLInputElement>('input[required]')].every((input) =>
      input.name === 'code' ? input.value.replace(/\D/g, '').length === 6 : input.value.trim() !== '',
    );
  const update = () => (button.disabled = busy || !ready());
  const setBusy = (on: boolean) => {
    busy = on;
    button.textContent = on ? (form.dataset.busy ?? label) : label;
    update();
  };
  form.addEventListener('input', update);

  if (!form.dataset.session) {
    // The typed-code page posts as it is; the server answers with the class's form or the error.
    form.addEventListener('submit', () => setBusy(true));
    update();
    return;
  }

  const sessionId = form.dataset.session;
  const alert = one<HTMLElement>('#scan-error', form)!;
  const remember = one<HTMLInputElement>('input[name=remember]', form)!;
  remember.parentElement!.hidden = false;
  const saved = remembered();
  if (saved) {
    for (const name of DETAILS) {
      const input = form.elements.namedItem(name) as HTMLInputElement;
      if (!input.value && typeof saved[name] === 'string') input.value = saved[name];
    }
    remember.checked = true;
  }
  update();

  /** The code on the classroom screen: asked when the pass ran out, or the server refused without one. */
  const askForCode = (focus: boolean) => {
    let code = form.elements.namedItem('code') as HTMLInputElement | null;
    if (!code) {
      form.querySelector('.field')!.before(one<HTMLTemplateElement>('#scan-code')!.content.cloneNode(true));
      code = form.elements.namedItem('code') as HTMLInputElement;
    }
    code.value = '';
    if (focus) code.focus();
    update();
  };

  const timer = one<HTMLElement>('[role=timer]', card);
  const ends = deadline(timer?.dataset.endsIn);
  const passEnds = deadline(form.dataset.passEndsIn);
  const tick = () => {
    const now = Date.now();
    if (ends !== null && now >= ends) return show('expired');
    if (timer && ends !== null) timer.textContent = mmss(ends - now);
    if (passEnds !== null && now >= passEnds && !form.elements.namedItem('code')) askForCode(false);
  };
  ticking = setInterval(tick, 1000);
  tick();

  const translations = JSON.parse(one('#scan-answers')?.textContent || '{}') as Record<string, string>;
  const say = (message: string) => translations[message] ?? message;
  const time = (iso: string | null | undefined) =>
    new Intl.DateTimeFormat(form.dataset.locale, { hour: 'numeric', minute: '2-digit', timeZone: form.dataset.tz }).format(iso ? new Date(iso) : new Date());

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy || !ready()) return;
    void send();
  });

  /** A check-in the network dropped, kept on the phone until it can be sent (the page must stay open). */
  let waiting: { body: string; details: Details } | null = null;
  let retrying: ReturnType<typeof setInterval> | undefined;
  let sending = false;

  async function send(): Promise<void> {
    const data = new FormData(form);
    const details = Object.fromEntries(DETAILS.map((name) => [name, String(data.get(name) ?? '').trim()])) as Details;
    const code = String(data.get('code') ?? '').replace(/\D/g, '');
    // No pass in the body: the cookie the page set stands in for it (a code replaces it). The time
    // recorded is the server's when the check-in arrives; scanInTime is only what the phone said.
    const body = JSON.stringify({ sessionId, ...details, scanInTime: new Date().toISOString(), ...(code ? { token: code } : {}) });
    setBusy(true);
    await deliver(body, details);
  }

  async function deliver(body: string, details: Details): Promise<void> {
    let res: Response | null = null;
    let answer: Answer | null = null;
    sending = true;
    try {
      if (!navigator.onLine) throw new Error('offline');
      res = await fetch('/api/attendance/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      answer = (await res.json()) as Answer;
    } catch {
      // No network (the request never got an answer): keep it and send it when the phone is back
      // online, for as long as the page stays open and the pass lasts (the server decides).
      if (!res) return keep(body, details);
    } finally {
      sending = false;
    }
    waiting = null;
    clearInterval(retrying);
    setBusy(false);
    if (res?.ok && answer) {
      try {
        if (remember.checked) localStorage.setItem(REMEMBERED, JSON.stringify(details));
        else localStorage.removeItem(REMEMBERED);
      } catch {
        // Storage refused: the details are typed again next time.
      }
      return result(answer, details);
    }
    if (res?.status === 404) return show('not-found');
    if (res?.status === 410) return show(answer?.code === 'SESSION_ENDED' ? 'ended' : 'expired');
    if (res?.status === 403) askForCode(true);
    alert.textContent = res && res.status < 500 && answer?.message ? say(answer.message) : (form.dataset.failed ?? '');
    alert.hidden = false;
  }

  function keep(body: string, details: Details): void {
    const first = waiting === null;
    waiting = { body, details };
    if (!first) return;
    alert.textContent = form.dataset.offline ?? '';
    alert.hidden = false;
    // The online event is a hint, not a promise: try every few seconds too.
    retrying = setInterval(retry, 5000);
  }

  function retry(): void {
    if (waiting && !sending && navigator.onLine) void deliver(waiting.body, waiting.details);
  }
  window.addEventListener('online', retry);

  function result(a: Answer, details: Details): void {
    // Checked in already: nothing changed. The server's page says so, with Check out (docs/decisions/039);
    // sending the form itself again asks for that page (a check-in again changes nothing).
    if (a.action === 'already_checked_in') return form.submit();
    // A check-in that ended a break (back from an instructor's break): when the break ended.
    const backAt = a.breaks
      ?.map((b) => b.endedAt)
      .filter((at) => at != null)
      .at(-1);
    const values = {
      course: a.courseName ?? one('h1', card)?.textContent ?? '',
      message: say(a.message ?? ''),
      time: time(a.action === 'checked_out' ? a.scanOutTime : a.action === 'break_ended' ? backAt : a.scanInTime),
      minutes: String(a.minutesAttended ?? ''),
      studentId: details.studentId,
      email: details.email,
    };
    // A record that says the student was not there (absent, excused) stands: not "Attendance Marked!".
    const notThere = one<HTMLTemplateElement>('#scan-see')?.dataset.statuses?.split(' ') ?? [];
    if (a.action === 'already_recorded' && notThere.includes(a.status ?? '')) return show('see', [a.status!], values);
    show('success', [a.action ?? '', a.action === 'checked_out' && a.minutesAttended != null ? 'minutes' : ''], values);
  }
}

const form = one<HTMLFormElement>('#scan-form') ?? one<HTMLFormElement>('#code-form');
if (form) enhance(form);

// Check out and the break buttons post as they are (they work without script, and carry no details
// the JSON API would need); pressed, the button says so and none is pressed twice. Listened to on the
// document: the success view's break buttons arrive after the page loaded.
document.addEventListener('submit', (event) => {
  const punch = event.target;
  if (!(punch instanceof HTMLFormElement) || (punch.id !== 'checkout-form' && punch.id !== 'break-form')) return;
  const buttons = [...punch.querySelectorAll<HTMLButtonElement>('button[type=submit]')];
  if (buttons.some((b) => b.getAttribute('aria-disabled') === 'true')) return event.preventDefault();
  const pressed = (event.submitter as HTMLButtonElement | null) ?? buttons[0];
  for (const b of buttons) b.setAttribute('aria-disabled', 'true');
  if (pressed) pressed.textContent = punch.dataset.busy ?? pressed.textContent;
});
