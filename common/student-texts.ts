/**
 * What students read, in English and Spanish: one catalogue for every student-facing text (the
 * "E-mail me my hours" form, the hours page, the e-mail with its link). Read through i18next
 * (server/lib/student-i18n.ts); placeholders are {{name}}. Values are plain text: whoever renders
 * HTML escapes them.
 */
export const STUDENT_LANGUAGES = ['en', 'es'] as const;
export type StudentLanguage = (typeof STUDENT_LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<StudentLanguage, string> = { en: 'English', es: 'Español' };

const en = {
  requestTitle: 'E-mail me my hours',
  requestIntro: 'Enter your student ID and the e-mail address the school has on file. If they match, we e-mail you a link to your hours that works for 7 days.',
  studentIdLabel: 'Student ID',
  emailLabel: 'E-mail address',
  send: 'Send me the link',
  requestSentTitle: 'Check your e-mail',
  requestSent:
    'If that student ID and e-mail address match a student’s record, we have sent a link to see your hours. It works for 7 days. It can take a few minutes; look in your spam folder too.',
  requestUnavailable: 'This school has not set up e-mail yet, so Muster cannot send your hours. Ask the school office for your record.',
  tooManyRequests: 'Too many requests from this device. Wait a few minutes and try again.',
  fixErrors: 'Please correct the fields marked below.',
  studentIdRequired: 'Student ID is required',
  emailInvalid: 'Enter a valid e-mail address',
  linkInvalidTitle: 'This link does not work',
  linkInvalid: 'This link has expired or is not complete. Links work for 7 days; ask for a new one below.',
  askAgain: 'Ask for a new link',
  hoursTitle: 'My hours',
  hoursOf: 'Hours of {{name}}',
  program: 'Program: {{program}}',
  noProgram: 'No program on file',
  asOf: 'As of the end of {{date}}. Read only: if something is wrong, tell your instructor or the school office.',
  earned: 'Hours earned',
  scheduled: 'Hours scheduled',
  attendanceRate: 'Attendance',
  earnedHelp: 'Time you attended, made up, and excused time up to your program’s limit.',
  periodTitle: 'Current payment period',
  periodProgress: 'Period {{number}}: {{done}} of {{end}} hours',
  periodRemaining: '{{hours}} hours to go',
  periodWeeksEnd: 'Its weeks end on {{date}}',
  periodNone: 'Your program has no payment periods, or all of them are complete.',
  excusedTitle: 'Excused time',
  excusedUsed: '{{used}} of {{cap}} excused hours counted in this period',
  excusedOver: '{{hours}} excused hours over the limit count for nothing and must be made up.',
  excusedTotal: '{{hours}} excused hours in all',
  makeUpTitle: 'Make-up',
  makeUpOwed: 'Make-up owed: {{hours}} hours',
  makeUpNone: 'You owe no make-up time.',
  makeUpDone: '{{hours}} make-up hours done',
  makeUpHow: 'Missed time counts against the hours you need. Talk to your instructor about making it up.',
  lastDaysTitle: 'The last 30 days',
  lastDaysNone: 'No classes in the last 30 days.',
  colDate: 'Date',
  colScheduled: 'Scheduled',
  colEarned: 'Earned',
  colNote: 'Note',
  noteAbsent: 'Absent',
  notePartly: 'Part of the class missed',
  noteExcused: 'Excused',
  noteMakeUp: 'Make-up',
  language: 'Language',
  emailSubject: 'Your hours at {{school}}',
  emailBody:
    'Hello {{firstName}},\n\nYou asked to see your hours at {{school}}. Open this link (it works for 7 days):\n\n{{link}}\n\nIf you did not ask, you can ignore this e-mail: nobody can see your hours without the link.',
  emailLinkText: 'See my hours',
} as const;

export type StudentTextKey = keyof typeof en;

const es: Record<StudentTextKey, string> = {
  requestTitle: 'Enviarme mis horas por correo',
  requestIntro:
    'Escribe tu número de estudiante y el correo electrónico que tiene la escuela. Si coinciden, te enviamos un enlace a tus horas que funciona durante 7 días.',
  studentIdLabel: 'Número de estudiante',
  emailLabel: 'Correo electrónico',
  send: 'Enviarme el enlace',
  requestSentTitle: 'Revisa tu correo',
  requestSent:
    'Si ese número de estudiante y ese correo coinciden con el registro de un estudiante, te enviamos un enlace para ver tus horas. Funciona durante 7 días. Puede tardar unos minutos; revisa también la carpeta de correo no deseado.',
  requestUnavailable: 'Esta escuela todavía no ha configurado el correo, así que Muster no puede enviarte tus horas. Pide tu registro en la oficina de la escuela.',
  tooManyRequests: 'Demasiadas solicitudes desde este dispositivo. Espera unos minutos y vuelve a intentarlo.',
  fixErrors: 'Corrige los campos marcados abajo.',
  studentIdRequired: 'El número de estudiante es obligatorio',
  emailInvalid: 'Escribe un correo electrónico válido',
  linkInvalidTitle: 'Este enlace no funciona',
  linkInvalid: 'Este enlace ha caducado o está incompleto. Los enlaces funcionan durante 7 días; pide uno nuevo abajo.',
  askAgain: 'Pedir un enlace nuevo',
  hoursTitle: 'Mis horas',
  hoursOf: 'Horas de {{name}}',
  program: 'Programa: {{program}}',
  noProgram: 'Sin programa registrado',
  asOf: 'Al final del {{date}}. Solo lectura: si algo está mal, díselo a tu instructor o a la oficina de la escuela.',
  earned: 'Horas obtenidas',
  scheduled: 'Horas programadas',
  attendanceRate: 'Asistencia',
  earnedHelp: 'El tiempo que asististe, recuperaste, y el tiempo justificado hasta el límite de tu programa.',
  periodTitle: 'Período de pago actual',
  periodProgress: 'Período {{number}}: {{done}} de {{end}} horas',
  periodRemaining: 'Faltan {{hours}} horas',
  periodWeeksEnd: 'Sus semanas terminan el {{date}}',
  periodNone: 'Tu programa no tiene períodos de pago, o todos están completos.',
  excusedTitle: 'Tiempo justificado',
  excusedUsed: '{{used}} de {{cap}} horas justificadas cuentan en este período',
  excusedOver: '{{hours}} horas justificadas por encima del límite no cuentan y hay que recuperarlas.',
  excusedTotal: '{{hours}} horas justificadas en total',
  makeUpTitle: 'Recuperación',
  makeUpOwed: 'Horas por recuperar: {{hours}}',
  makeUpNone: 'No debes tiempo de recuperación.',
  makeUpDone: '{{hours}} horas recuperadas',
  makeUpHow: 'El tiempo perdido cuenta contra las horas que necesitas. Habla con tu instructor para recuperarlo.',
  lastDaysTitle: 'Los últimos 30 días',
  lastDaysNone: 'No hubo clases en los últimos 30 días.',
  colDate: 'Fecha',
  colScheduled: 'Programadas',
  colEarned: 'Obtenidas',
  colNote: 'Nota',
  noteAbsent: 'Ausente',
  notePartly: 'Faltó parte de la clase',
  noteExcused: 'Justificada',
  noteMakeUp: 'Recuperación',
  language: 'Idioma',
  emailSubject: 'Tus horas en {{school}}',
  emailBody:
    'Hola, {{firstName}}:\n\nPediste ver tus horas en {{school}}. Abre este enlace (funciona durante 7 días):\n\n{{link}}\n\nSi no lo pediste, puedes ignorar este correo: nadie puede ver tus horas sin el enlace.',
  emailLinkText: 'Ver mis horas',
};

export const STUDENT_TEXTS: Record<StudentLanguage, Record<StudentTextKey, string>> = { en, es };
