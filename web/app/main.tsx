// First: zod must be jitless before any schema is built (see the module).
import '../lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { capturePrerenderedFields } from '../lib/prerendered-fields.ts';
import { AppRoutes } from './app-routes.tsx';
import { Providers } from './providers.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// login.html arrives with the sign-in page drawn: keep what was typed before this script ran.
capturePrerenderedFields(root);

createRoot(root).render(
  <StrictMode>
    <Providers>
      <AppRoutes />
    </Providers>
  </StrictMode>,
);
