// First: zod must be jitless before any schema is built (see the module).
import '../lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './scan.css';
import { ScanPage } from './scan-page.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('scan.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <ScanPage />
  </StrictMode>,
);
