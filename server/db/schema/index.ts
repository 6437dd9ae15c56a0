// The schema entry drizzle-kit reads (drizzle.config.ts) and the typed client uses.
export * from './users.ts';
export * from './academics.ts';
export * from './students.ts';
export * from './schedules.ts';
export * from './attendance.ts';
export * from './audit.ts';
export * from './settings.ts';
export * from './uploads.ts';
export * from './security.ts';
export * from './hours.ts';
export * from './notifications.ts';
export * from './opening-balances.ts';
export * from './transcripts.ts';
export * from './alerts.ts';
export * from './time-clock.ts';
export * from './punches.ts';
export * from './kept-ledgers.ts';
