import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { LoginPage } from './login-page.tsx';

/**
 * The sign-in page as the browser first draws it, before anything is fetched: rendered once at
 * build time into login.html (scripts/prerender-sign-in.ts), so a phone on a slow network can type
 * while the app's script is still arriving. The app then draws the same page over it and keeps what
 * was typed (lib/prerendered-fields.ts).
 */
export function renderSignInPage(): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <StaticRouter location="/login">
        <LoginPage />
      </StaticRouter>
    </QueryClientProvider>,
  );
}
