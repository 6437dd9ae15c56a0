import { ChartColumn, Layers, Lock, QrCode, RefreshCw, ShieldCheck, type LucideIcon } from 'lucide-react';

/** The six landing cards of SPEC §2; titles are fixed, descriptions say what Muster really does. */
export const FEATURES: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'QR Code Attendance',
    description: 'Students check in and out by scanning the class QR code with their own phone. The code rotates, so a photo sent to a friend stops working.',
    icon: QrCode,
  },
  {
    title: 'Role-Based Security',
    description: 'Super administrators, IT administrators, instructors and support staff each see only what their role allows, enforced on the server.',
    icon: ShieldCheck,
  },
  {
    title: 'SIS Integration Ready',
    description: 'Import programs, courses, instructors, students and schedules from CSV, and export attendance with your SIS identifiers.',
    icon: RefreshCw,
  },
  {
    title: 'Real-Time Analytics',
    description: 'See who has checked in while class is running, with attendance rates and low-attendance alerts from real records.',
    icon: ChartColumn,
  },
  {
    title: 'FERPA Compliant',
    description: 'Sensitive fields are encrypted at rest, every change lands in an append-only audit log, and retention follows your policy.',
    icon: Lock,
  },
  {
    title: 'Scalable Architecture',
    description: 'One small server runs a campus; a group of campuses runs several app instances against one PostgreSQL database.',
    icon: Layers,
  },
];
