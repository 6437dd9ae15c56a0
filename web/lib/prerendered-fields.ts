/**
 * What a person typed into a page the server sent ready-drawn (login.html, drawn at build time)
 * before the app's script arrived: taken just before the app draws over it, and put back into
 * the app's own fields once, then forgotten (a password does not stay in memory).
 */
type Captured = { values: Map<string, string>; focused: string | null };
let captured: Captured | null = null;

export function capturePrerenderedFields(root: HTMLElement): void {
  const values = new Map<string, string>();
  for (const input of root.querySelectorAll<HTMLInputElement>('input[name]')) if (input.value) values.set(input.name, input.value);
  const active = document.activeElement;
  const focused = active instanceof HTMLInputElement && root.contains(active) ? active.name : null;
  captured = values.size > 0 || focused ? { values, focused } : null;
}

/** Into `form`'s fields of the same names (as properties, never attributes), and the focus back where it was. */
export function restorePrerenderedFields(form: HTMLFormElement | null): void {
  if (!form || !captured) return;
  const { values, focused } = captured;
  captured = null;
  for (const [name, value] of values) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement && input.value === '') input.value = value;
  }
  const target = focused ? form.elements.namedItem(focused) : null;
  if (target instanceof HTMLInputElement) {
    target.focus();
    // E-mail (and number) inputs have no selection: setSelectionRange throws on them.
    if (['text', 'search', 'url', 'tel', 'password'].includes(target.type)) target.setSelectionRange(target.value.length, target.value.length);
  }
}
