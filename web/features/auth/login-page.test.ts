import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_FORM_REFUSALS, SSO_REFUSALS } from '../../../common/auth-texts.ts';
import { LoginPage } from './login-page.tsx';
import { SignInStepScreen } from './sign-in-steps.tsx';

/** The sign-in page drawn for an address, as the prerender and the browser's first draw do. */
const draw = (search: string) =>
  renderToStaticMarkup(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(StaticRouter, { location: `/login${search}` }, createElement(LoginPage))),
  );

const ALL_REFUSALS = [...Object.values(SSO_REFUSALS), ...Object.values(SIGN_IN_FORM_REFUSALS)];

describe('the sign-in page and the refusal in its address', () => {
  it('says a known refusal in words', () => {
    expect(draw('?sso_error=inactive_user')).toContain(SSO_REFUSALS.inactive_user);
    expect(draw('?signin_error=RATE_LIMITED')).toContain(SIGN_IN_FORM_REFUSALS.RATE_LIMITED);
  });

  it('draws normally, with no error, for names every object inherits (__proto__, constructor, toString)', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const param of ['sso_error', 'signin_error']) {
        const html = draw(`?${param}=${name}`);
        expect(html, `${param}=${name}`).toContain('Sign in to Muster');
        expect(html).not.toContain('role="alert"');
        for (const text of ALL_REFUSALS) expect(html).not.toContain(text);
      }
    }
  });
});

describe('where the sign-in pages put the keyboard', () => {
  const inputOf = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';

  it('focuses the e-mail field, also in the page drawn at build time, and says what to do about a forgotten password', () => {
    const html = draw('');
    expect(inputOf(html, 'email')).toContain('autofocus');
    expect(inputOf(html, 'password')).not.toContain('autofocus');
    expect(html).toContain('Forgot password? Ask your administrator.');
  });

  it("focuses the first field of a sign-in step: the current password, the authenticator's code", () => {
    const step = (s: 'password_change' | 'totp') =>
      renderToStaticMarkup(
        createElement(
          QueryClientProvider,
          { client: new QueryClient() },
          createElement(StaticRouter, { location: '/' }, createElement(SignInStepScreen, { step: s, email: 'a@b.example' })),
        ),
      );
    expect(inputOf(step('password_change'), 'currentPassword')).toContain('autofocus');
    expect(inputOf(step('password_change'), 'newPassword')).not.toContain('autofocus');
    expect(inputOf(step('totp'), 'code')).toContain('autofocus');
  });
});
