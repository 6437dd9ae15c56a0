import { ClipboardCheck, QrCode, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from './ui/alert.tsx';
import { BrandMark } from './ui/brand-mark.tsx';
import { buttonClasses } from './ui/button.tsx';

const POINTS = [
  { icon: QrCode, text: 'Students check in by scanning a QR code with their own phone.' },
  { icon: ClipboardCheck, text: 'Clock hours attended, per student and course, ready for your SIS.' },
  { icon: ShieldCheck, text: 'Every change recorded in an audit trail.' },
];

/** Two-column frame for the sign-in and setup pages; the product panel hides on small screens. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen bg-white">
      <aside className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-slate-900 p-12 text-white lg:flex">
        <div aria-hidden="true" className="pointer-events-none absolute -top-32 -right-32 size-96 rounded-full bg-blue-600/30 blur-3xl" />
        <Link to="/" className="relative w-fit rounded-md">
          <BrandMark tone="light" />
        </Link>
        <div className="relative">
          <p className="text-3xl leading-tight font-bold tracking-tight">Attendance that counts every clock hour.</p>
          <ul className="mt-8 space-y-4">
            {POINTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-slate-200">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-white/10">
                  <Icon aria-hidden="true" className="size-4" />
                </span>
                <span className="pt-1 text-sm leading-6">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-slate-400">Muster · Attendance and student records for career schools</p>
      </aside>
      <main className="flex flex-1 flex-col items-center justify-center px-6 py-12 sm:px-12">
        <div className="w-full max-w-sm">
          <Link to="/" className="mb-10 inline-flex rounded-md lg:hidden">
            <BrandMark />
          </Link>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-2 text-sm text-slate-600">{subtitle}</p>
          <div className="mt-8">{children}</div>
        </div>
      </main>
    </div>
  );
}

type AuthNoticeProps = {
  title: string;
  subtitle: string;
  /** The one message of the page, as an info note or an error. */
  notice: ReactNode;
  noticeVariant?: 'info' | 'error';
  /** The way on: a full-width button-styled link to the sign-in page. */
  linkVariant?: 'primary' | 'secondary';
  linkLabel: ReactNode;
};

/** An auth page that has nothing to fill in: one notice and a link to sign in (setup done, password set, a broken link). */
export function AuthNotice({ title, subtitle, notice, noticeVariant = 'info', linkVariant = 'primary', linkLabel }: AuthNoticeProps) {
  return (
    <AuthLayout title={title} subtitle={subtitle}>
      <Alert variant={noticeVariant} className="mb-6">
        {notice}
      </Alert>
      <Link to="/login" className={buttonClasses(linkVariant, 'lg', 'w-full')}>
        {linkLabel}
      </Link>
    </AuthLayout>
  );
}
