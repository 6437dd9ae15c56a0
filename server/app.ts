import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { canonicalRequestTarget } from './lib/request-target.ts';
import { PROJECT_ROOT } from './lib/project-root.ts';
import { createFieldCipher, loadEncryptionKey, type FieldCipher } from './lib/field-cipher.ts';
import { API_DOCS_PREFIX, registerAuthorization } from './plugins/authorization.ts';
import { registerCompression } from './plugins/compression.ts';
import { createHeavyReadGate, registerHeavyReads, type HeavyReadLimits } from './plugins/heavy-reads.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { REQUEST_TIMEOUTS, registerBodyTimeout, timeoutServerOptions, type RequestTimeouts } from './plugins/request-timeouts.ts';
import { validatorCompiler } from './plugins/input-validation.ts';
import { createRateLimitStore } from './plugins/rate-limit-store.ts';
import { registerRequestLog } from './plugins/request-log.ts';
import { createResponseTimes, registerResponseTimes } from './plugins/response-times.ts';
import './plugins/request-context.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { builtScanScript, registerWebApp } from './plugins/web-app.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { timeZoneChangeRoutes } from './modules/time-zone-change/routes.ts';
import { studentsRoutes } from './modules/students/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { programsRoutes } from './modules/programs/routes.ts';
import { coursesRoutes } from './modules/courses/routes.ts';
import { schedulesRoutes } from './modules/schedules/routes.ts';
import { qrSessionsRoutes } from './modules/qr-sessions/routes.ts';
import { meetingBreaksRoutes } from './modules/meeting-breaks/routes.ts';
import { attendanceRoutes } from './modules/attendance/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { auditLogsRoutes } from './modules/audit-logs/routes.ts';
import { importsRoutes } from './modules/imports/routes.ts';
import { exportsRoutes } from './modules/exports/routes.ts';
import { sisRoutes } from './modules/sis/routes.ts';
import { backupsRoutes } from './modules/backups/routes.ts';
import { hoursRoutes } from './modules/hours/routes.ts';
import { complianceRoutes } from './modules/compliance/routes.ts';
import { outboxRoutes } from './modules/outbox/routes.ts';
import { ssoRoutes } from './modules/sso/routes.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { maintenanceRoutes } from './modules/maintenance/routes.ts';
import { digestsRoutes } from './modules/digests/routes.ts';
import { studentHoursRoutes } from './modules/student-hours/routes.ts';
import { missedPunchesRoutes } from './modules/missed-punches/routes.ts';
import { scanRoutes } from './modules/scan/routes.ts';
import { jobHistoryRoutes } from './modules/job-history/routes.ts';
import { calendarRoutes } from './modules/calendar/routes.ts';

const DEFAULT_WEB_ROOT = path.join(PROJECT_ROOT, 'dist', 'web');

/** Build the whole app without listening: main.ts listens, tests call app.inject(). */
export async function buildApp(
  deps: { db: Db; config: Config; clock?: Clock; cipher?: FieldCipher; instanceId?: () => string | null },
  opts: { logger?: boolean | object; webRoot?: string; timeouts?: Partial<RequestTimeouts>; heavyReads?: HeavyReadLimits } = {},
): Promise<FastifyInstance> {
  const full: AppDeps = {
    ...deps,
    clock: deps.clock ?? systemClock,
    cipher: deps.cipher ?? createFieldCipher(loadEncryptionKey(deps.config.encryptionKey, deps.config.dataDir)),
    responseTimes: createResponseTimes(),
    instanceId: deps.instanceId ?? (() => null),
  };
  const timeouts = { ...REQUEST_TIMEOUTS, ...opts.timeouts };
  const app = Fastify({
    // A trickled request is cut off (plugins/request-timeouts.ts).
    ...timeoutServerOptions(timeouts),
    logger: opts.logger ?? false,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    // plugins/request-log.ts writes one line per request instead of Fastify's two.
    disableRequestLogging: true,
    // Every spelling of a path reaches the same route (server/lib/request-target.ts); access is
    // still decided from the matched route alone (plugins/authorization.ts).
    rewriteUrl: (req) => canonicalRequestTarget(req.url ?? '/'),
    routerOptions: { caseSensitive: false },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandler(app);
  registerBodyTimeout(app, timeouts);
  // Before any route: it attaches to each route as the route is added.
  await registerCompression(app);
  await app.register(fastifyCookie);
  // Counters live in PostgreSQL so a limit holds however many instances serve the school.
  await app.register(fastifyRateLimit, { global: false, store: createRateLimitStore(full.db, full.clock) });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Muster API', version: '1' } },
    transform: jsonSchemaTransform,
  });
  registerAuthorization(app, full);
  registerSecurityHeaders(app);
  registerResponseTimes(app, full.responseTimes);
  // Before the routes: it wraps each route that declares `heavy` as the route is added.
  registerHeavyReads(app, createHeavyReadGate(opts.heavyReads));
  registerRequestLog(app);

  await app.register(healthRoutes(full));
  await app.register(authRoutes(full));
  await app.register(settingsRoutes(full));
  await app.register(timeZoneChangeRoutes(full));
  await app.register(usersRoutes(full));
  await app.register(studentsRoutes(full));
  await app.register(programsRoutes(full));
  await app.register(coursesRoutes(full));
  await app.register(schedulesRoutes(full));
  await app.register(qrSessionsRoutes(full));
  await app.register(meetingBreaksRoutes(full));
  await app.register(attendanceRoutes(full));
  await app.register(dashboardRoutes(full));
  await app.register(auditLogsRoutes(full));
  await app.register(importsRoutes(full));
  await app.register(exportsRoutes(full));
  await app.register(sisRoutes(full));
  await app.register(backupsRoutes(full));
  await app.register(hoursRoutes(full));
  await app.register(complianceRoutes(full));
  await app.register(calendarRoutes(full));
  await app.register(outboxRoutes(full));
  await app.register(ssoRoutes(full));
  await app.register(notificationsRoutes(full));
  await app.register(maintenanceRoutes(full));
  await app.register(digestsRoutes(full));
  await app.register(studentHoursRoutes(full));
  await app.register(missedPunchesRoutes(full));
  const webRoot = opts.webRoot ?? DEFAULT_WEB_ROOT;
  await app.register(scanRoutes(full, { script: builtScanScript(webRoot) }));
  await app.register(jobHistoryRoutes(full));
  // The API reference for SIS integrators: Swagger UI at /api/docs, the OpenAPI description at /api/docs/json.
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig: { deepLinking: false } });

  await registerWebApp(app, webRoot);
  return app;
}
