import { MISSED_PUNCH_ALREADY_ASKED, MISSED_PUNCH_DAYS } from './missed-punches.ts';
import type { StudentLanguage } from './student-texts.ts';

/**
 * What students read on the missed-punch pages (decision 053), in English and Spanish: the hours link's
 * "Forgot to check in or out?" page and the scan page's. Placeholders are {{name}}; values are plain
 * text, and whoever renders HTML escapes them.
 */
const en = {
  title: 'Forgot to check in or out?',
  linkFromHours: 'Forgot to check in or out? Ask for a correction',
  introLink: `Your classes of the last ${MISSED_PUNCH_DAYS} days with a missing check-in or check-out. Tell your instructor when you came or left, and why the punch is missing; they approve or decline it.`,
  introDevice: `Classes of the last ${MISSED_PUNCH_DAYS} days checked in from this phone without a check-out. Tell your instructor when you left, and why; they approve or decline it.`,
  none: `Nothing to correct: no class of the last ${MISSED_PUNCH_DAYS} days is missing a check-in or check-out here.`,
  deviceHelp: 'This page lists only classes checked in from this phone. If you used another phone, open this page on it, or use the link to your hours.',
  meetingOf: '{{course}} · {{date}}',
  classTimes: 'Class: {{start}} to {{end}}',
  forStudent: 'For {{name}}',
  missingCheckOut: 'No check-out',
  missingCheckIn: 'No check-in',
  checkedInAt: 'Checked in at {{time}}',
  checkInLabel: 'Time you arrived',
  checkOutLabel: 'Time you left',
  timeHint: 'School time, such as 14:30',
  reasonLabel: 'Why is it missing?',
  send: 'Ask for the correction',
  sent: 'Your request was sent. Your instructor will approve or decline it.',
  alreadyAsked: MISSED_PUNCH_ALREADY_ASKED,
  declinedBefore: 'An earlier request was declined: {{reason}}',
  fixErrors: 'Check the fields marked below.',
  checkInRequired: 'Enter the time you arrived.',
  checkOutRequired: 'Enter the time you left.',
  timeInvalid: 'Enter a time such as 14:30.',
  outsideClass: 'The time must be during the class, from {{start}} to {{end}}.',
  beforeCheckIn: 'The time you left must be after you arrived ({{time}}).',
  reasonRequired: 'Tell your instructor why.',
  reasonTooLong: 'Keep the reason to 500 characters or fewer.',
  notAvailable: 'This class cannot be corrected here. Ask your instructor.',
  tooManyRequests: 'Too many requests from this device. Wait a few minutes and try again.',
  backToHours: 'Back to my hours',
  linkInvalid: 'This link has expired or is not complete. Ask for a new link to your hours.',
  linkInvalidTitle: 'This link does not work',
  askNewLink: 'Ask for a new link',
} as const;

export type MissedPunchTextKey = keyof typeof en;

const es: Record<MissedPunchTextKey, string> = {
  title: '¿Olvidaste registrar tu entrada o salida?',
  linkFromHours: '¿Olvidaste registrar tu entrada o salida? Pide una corrección',
  introLink: `Tus clases de los últimos ${MISSED_PUNCH_DAYS} días sin registro de entrada o de salida. Dile a tu instructor cuándo llegaste o te fuiste, y por qué falta el registro; tu instructor lo aprueba o lo rechaza.`,
  introDevice: `Clases de los últimos ${MISSED_PUNCH_DAYS} días con entrada registrada desde este teléfono y sin salida. Dile a tu instructor cuándo te fuiste, y por qué; tu instructor lo aprueba o lo rechaza.`,
  none: `Nada que corregir: ninguna clase de los últimos ${MISSED_PUNCH_DAYS} días tiene aquí la entrada o la salida sin registrar.`,
  deviceHelp:
    'Esta página muestra solo las clases con entrada registrada desde este teléfono. Si usaste otro teléfono, abre esta página en él, o usa el enlace a tus horas.',
  meetingOf: '{{course}} · {{date}}',
  classTimes: 'Clase: de {{start}} a {{end}}',
  forStudent: 'Para {{name}}',
  missingCheckOut: 'Sin salida registrada',
  missingCheckIn: 'Sin entrada registrada',
  checkedInAt: 'Entrada registrada a las {{time}}',
  checkInLabel: 'Hora en que llegaste',
  checkOutLabel: 'Hora en que te fuiste',
  timeHint: 'Hora de la escuela, por ejemplo 14:30',
  reasonLabel: '¿Por qué falta el registro?',
  send: 'Pedir la corrección',
  sent: 'Enviamos tu solicitud. Tu instructor la aprobará o la rechazará.',
  alreadyAsked: 'Ya lo pediste; tu instructor decidirá.',
  declinedBefore: 'Una solicitud anterior fue rechazada: {{reason}}',
  fixErrors: 'Corrige los campos marcados abajo.',
  checkInRequired: 'Escribe la hora en que llegaste.',
  checkOutRequired: 'Escribe la hora en que te fuiste.',
  timeInvalid: 'Escribe una hora, por ejemplo 14:30.',
  outsideClass: 'La hora debe estar dentro de la clase, de {{start}} a {{end}}.',
  beforeCheckIn: 'La hora en que te fuiste debe ser posterior a tu llegada ({{time}}).',
  reasonRequired: 'Dile a tu instructor por qué.',
  reasonTooLong: 'Escribe el motivo en 500 caracteres como máximo.',
  notAvailable: 'Esta clase no se puede corregir aquí. Habla con tu instructor.',
  tooManyRequests: 'Demasiadas solicitudes desde este dispositivo. Espera unos minutos y vuelve a intentarlo.',
  backToHours: 'Volver a mis horas',
  linkInvalid: 'Este enlace ha caducado o está incompleto. Pide un enlace nuevo a tus horas.',
  linkInvalidTitle: 'Este enlace no funciona',
  askNewLink: 'Pedir un enlace nuevo',
};

const MISSED_PUNCH_TEXTS: Record<StudentLanguage, Record<MissedPunchTextKey, string>> = { en, es };

export type MissedPunchT = (key: MissedPunchTextKey, values?: Record<string, string | number>) => string;

/** A translator fixed to one language; {{name}} placeholders filled from `values`. */
export function missedPunchT(language: StudentLanguage): MissedPunchT {
  const texts = MISSED_PUNCH_TEXTS[language];
  return (key, values) => texts[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole));
}
