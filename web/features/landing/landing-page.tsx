import { ArrowRight, Clock, QrCode, Smartphone } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button.tsx';
import { BrandMark } from '../../components/ui/brand-mark.tsx';
import { Card } from '../../components/ui/card.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { SIGN_IN_URL } from '../../lib/navigation.ts';
import { FEATURES } from './feature-list.ts';

/**
 * The logged-out home page (SPEC §2). Sign In, Get Started and Start Your Trial are plain links
 * to /api/login: a full browser navigation, and the server picks sign-in or first-run setup.
 */
export function LandingPage() {
  useDocumentTitle('Attendance for career schools');
  return (
    <div className="min-h-screen bg-white">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-blue-800 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <BrandMark />
          <a href={SIGN_IN_URL} className={buttonClasses('secondary', 'md')}>
            Sign In
          </a>
        </div>
      </header>

      <main id="main-content" tabIndex={-1} className="outline-none">
        <section aria-labelledby="hero-title" className="relative overflow-hidden bg-slate-900">
          <div aria-hidden="true" className="pointer-events-none absolute -top-40 right-0 size-[32rem] rounded-full bg-blue-600/25 blur-3xl" />
          <div aria-hidden="true" className="pointer-events-none absolute -bottom-48 -left-24 size-[28rem] rounded-full bg-indigo-500/20 blur-3xl" />
          <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-20 sm:px-6 lg:grid-cols-[1.2fr_1fr] lg:py-28">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-blue-100 ring-1 ring-white/15">
                <Clock aria-hidden="true" className="size-4" />
                Built for clock-hour programs
              </p>
              <h1 id="hero-title" className="mt-6 text-4xl font-bold tracking-tight text-white sm:text-5xl">
                Attendance that counts every clock hour
              </h1>
              <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
                Muster replaces paper sign-in sheets for practical nursing and career schools. Students check in from their phones, instructors see the roster
                fill up live, and administrators export exact hours to the SIS.
              </p>
              <div className="mt-10 flex flex-wrap items-center gap-4">
                <a href={SIGN_IN_URL} className={buttonClasses('on-dark', 'lg')}>
                  Get Started
                  <ArrowRight aria-hidden="true" className="size-4" />
                </a>
                <a href="#features" className="rounded-md text-sm font-semibold text-white underline-offset-4 hover:underline">
                  See what it does
                </a>
              </div>
            </div>
            <HeroIllustration />
          </div>
        </section>

        <section id="features" aria-labelledby="features-title" className="scroll-mt-16 bg-slate-50 py-20 sm:py-24">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="max-w-2xl">
              <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase">Features</p>
              <h2 id="features-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900">
                Everything attendance needs, in one place
              </h2>
              <p className="mt-4 text-lg text-slate-600">
                From the QR code on the classroom screen to the CSV your SIS imports, with the records auditors ask for.
              </p>
            </div>
            <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map(({ title, description, icon: Icon }) => (
                <li key={title}>
                  <Card className="h-full p-6 transition-shadow hover:shadow-md">
                    <span className="flex size-11 items-center justify-center rounded-lg bg-blue-50 ring-1 ring-blue-100">
                      <Icon aria-hidden="true" className="size-5 text-blue-700" />
                    </span>
                    <h3 className="mt-5 text-base font-semibold text-slate-900">{title}</h3>
                    <p className="mt-2 text-sm leading-6 text-slate-600">{description}</p>
                  </Card>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="trial-title" className="bg-white py-20 sm:py-24">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="relative overflow-hidden rounded-2xl bg-blue-700 px-6 py-14 text-center shadow-xl sm:px-16">
              <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-16 size-72 rounded-full bg-white/10 blur-2xl" />
              <h2 id="trial-title" className="relative text-3xl font-bold tracking-tight text-white">
                Ready to retire the paper sign-in sheet?
              </h2>
              <p className="relative mx-auto mt-4 max-w-xl text-lg text-blue-50">
                Create your administrator account, import your programs and students, and take attendance in your next class.
              </p>
              <a href={SIGN_IN_URL} className={buttonClasses('on-dark', 'lg', 'relative mt-8')}>
                Start Your Trial
              </a>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 sm:flex-row sm:px-6">
          <BrandMark />
          <p className="text-sm text-slate-600">© {new Date().getFullYear()} Muster. Attendance and student records for career schools.</p>
        </div>
      </footer>
    </div>
  );
}

/** Decorative: a phone scanning a class code. Carries no figures, so it can't mislead. */
function HeroIllustration() {
  return (
    <div aria-hidden="true" className="relative mx-auto hidden w-full max-w-sm lg:block">
      <div className="rounded-3xl bg-white/5 p-3 ring-1 ring-white/10 backdrop-blur">
        <div className="rounded-2xl bg-white p-8 shadow-2xl">
          <div className="flex items-center gap-2 text-sm font-semibold text-slate-700">
            <Smartphone className="size-4 text-blue-700" />
            Scan to check in
          </div>
          <div className="mt-6 flex aspect-square items-center justify-center rounded-xl bg-slate-50 ring-1 ring-slate-200">
            <QrCode className="size-40 text-slate-900" strokeWidth={1.25} />
          </div>
          <div className="mt-6 h-2.5 w-3/4 rounded-full bg-slate-200" />
          <div className="mt-3 h-2.5 w-1/2 rounded-full bg-slate-100" />
          <div className="mt-6 h-10 rounded-lg bg-blue-700" />
        </div>
      </div>
    </div>
  );
}
