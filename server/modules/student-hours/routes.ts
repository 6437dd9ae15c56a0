import { finished } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HOURS_LINK_REQUESTED, hoursLinkRequestSchema, studentHoursViewSchema } from '../../../common/my-hours.ts';
import type { AppDeps } from '../../app-deps.ts';
import { notFound } from '../../lib/errors.ts';
import { acceptFormPosts } from '../../lib/form-body.ts';
import { pickStudentLanguage } from '../../lib/student-i18n.ts';
import {
  DEVICE_MISSED_PUNCH_PATH,
  deviceOf,
  hoursByLink,
  hoursLinkRequestsSettled,
  hoursPage,
  missedPunchDevicePage,
  missedPunchLinkPage,
  missedPunchTooManyPage,
  requestHoursLink,
  requestPage,
  submitMissedPunchByDevice,
  submitMissedPunchByLink,
  submitRequestForm,
  tooManyRequestsPage,
  type StudentPage,
} from './service.ts';

/** One device may ask this often: a class behind one access point shares an address, so it is not tiny. */
const REQUEST_LIMIT = { max: 30, timeWindow: '10 minutes' };
const VIEW_LIMIT = { max: 60, timeWindow: '1 minute' };
/** Missed-punch requests from one address: a class behind one access point may each ask once after a busy week. */
const MISSED_PUNCH_LIMIT = { max: 60, timeWindow: '10 minutes' };
const langQuery = z.object({ lang: z.string().max(10).optional() });
const tokenParams = z.object({ token: z.string().max(100) });

/**
 * When the answer has gone out (or the client has gone away): the moment a link request's lookup
 * starts, so that whether the student ID and e-mail matched never shows in the answer's timing.
 */
function afterAnswer(req: FastifyRequest, reply: FastifyReply) {
  return { answered: new Promise<void>((resolve) => finished(reply.raw, () => resolve())), log: req.log };
}

/**
 * A student's own hours (decision 022): "E-mail me my hours" at /my-hours (and from the scan page's
 * success screen through the API), and the read-only page the e-mailed link opens. Students have
 * no account: the link is the credential; the request answers the same whether or not it matched.
 */
export function studentHoursRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // A link request's lookup runs after its answer has gone out; closing waits for those still running.
    app.addHook('onClose', async () => hoursLinkRequestsSettled());

    app.post(
      '/api/my-hours/request',
      { config: { public: true, rateLimit: REQUEST_LIMIT }, schema: { body: hoursLinkRequestSchema, response: { 202: z.object({ message: z.string() }) } } },
      async (req, reply) => {
        requestHoursLink(deps, req.body, afterAnswer(req, reply));
        return reply.status(202).send({ message: HOURS_LINK_REQUESTED });
      },
    );

    app.get(
      '/api/my-hours/:token',
      { config: { public: true, rateLimit: VIEW_LIMIT }, schema: { params: tokenParams, response: { 200: studentHoursViewSchema } } },
      async (req, reply) => {
        reply.header('referrer-policy', 'same-origin');
        const view = await hoursByLink(deps, req.params.token);
        if (!view) throw notFound('Hours link');
        return view;
      },
    );

    // The pages: server-rendered, no script. Their refusals are pages too, in the student's language.
    const studentPages: FastifyPluginAsyncZod = async (pages) => {
      acceptFormPosts(pages);
      const language = (req: FastifyRequest, chosen?: unknown) =>
        pickStudentLanguage(chosen ?? (req.query as { lang?: string } | undefined)?.lang, req.headers['accept-language']);
      const send = (reply: FastifyReply, page: StudentPage) =>
        reply.status(page.status).header('referrer-policy', 'same-origin').type('text/html; charset=utf-8').send(page.html);

      pages.setErrorHandler((error, req, reply) => {
        if ((error as { statusCode?: number }).statusCode !== 429) throw error;
        return send(reply, tooManyRequestsPage(language(req)));
      });

      pages.get('/my-hours', { config: { public: true, rateLimit: VIEW_LIMIT }, schema: { querystring: langQuery } }, async (req, reply) =>
        send(reply, requestPage(deps.config, language(req))),
      );

      pages.post('/my-hours', { config: { public: true, rateLimit: REQUEST_LIMIT }, schema: { querystring: langQuery } }, async (req, reply) => {
        const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
        return send(reply, submitRequestForm(deps, body, language(req, body.language), afterAnswer(req, reply)));
      });

      pages.get(
        '/my-hours/:token',
        { config: { public: true, rateLimit: VIEW_LIMIT }, schema: { params: tokenParams, querystring: langQuery } },
        async (req, reply) => send(reply, await hoursPage(deps, req.params.token, language(req))),
      );
    };
    await app.register(studentPages);

    // "Forgot to check in or out?" (decision 053): from the hours link, and from the phone that checked in.
    const missedPunchPages: FastifyPluginAsyncZod = async (pages) => {
      acceptFormPosts(pages);
      const language = (req: FastifyRequest, chosen?: unknown) =>
        pickStudentLanguage(chosen ?? (req.query as { lang?: string } | undefined)?.lang, req.headers['accept-language']);
      const formLanguage = (req: FastifyRequest) => language(req, (req.body as { language?: unknown } | undefined)?.language);
      // Never cached, never sent on as a referrer: the address may hold the hours link's token.
      const send = (reply: FastifyReply, page: StudentPage) =>
        reply.status(page.status).header('referrer-policy', 'same-origin').header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page.html);

      pages.setErrorHandler((error, req, reply) => {
        if ((error as { statusCode?: number }).statusCode !== 429) throw error;
        return send(reply, missedPunchTooManyPage(language(req), req.url.split('?')[0]!));
      });

      const view = { config: { public: true, rateLimit: VIEW_LIMIT }, schema: { querystring: langQuery } } as const;
      const post = { config: { public: true, rateLimit: MISSED_PUNCH_LIMIT }, schema: { querystring: langQuery } } as const;
      pages.get('/my-hours/:token/missed-punch', { ...view, schema: { ...view.schema, params: tokenParams } }, async (req, reply) =>
        send(reply, await missedPunchLinkPage(deps, req.params.token, language(req))),
      );
      pages.post('/my-hours/:token/missed-punch', { ...post, schema: { ...post.schema, params: tokenParams } }, async (req, reply) =>
        send(reply, await submitMissedPunchByLink(deps, req.params.token, req.body, formLanguage(req), req.ip)),
      );
      pages.get(DEVICE_MISSED_PUNCH_PATH, view, async (req, reply) =>
        send(reply, await missedPunchDevicePage(deps, deviceOf(deps, req, reply), language(req))),
      );
      pages.post(DEVICE_MISSED_PUNCH_PATH, post, async (req, reply) =>
        send(reply, await submitMissedPunchByDevice(deps, deviceOf(deps, req, reply), req.body, formLanguage(req), req.ip)),
      );
      // The scan page's link: the device cookie reaches only the scan pages' path, so the page lives there.
      pages.get('/attendance/missed-punch', view, async (req, reply) =>
        reply.redirect(req.query.lang ? `${DEVICE_MISSED_PUNCH_PATH}?lang=${encodeURIComponent(req.query.lang)}` : DEVICE_MISSED_PUNCH_PATH, 303),
      );
    };
    await app.register(missedPunchPages);
  };
}
