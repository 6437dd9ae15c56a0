import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.ts';
import { acceptFormPosts } from '../../lib/form-body.ts';
import type { StudentTextKey } from '../../../common/student-texts.ts';
import { escapeHtml } from '../../lib/html.ts';
import { studentT } from '../../lib/student-i18n.ts';
import { applyUnsubscribe, deliveryChannels, describeUnsubscribe } from './service.ts';

/** A page that works in any mail program's browser: no script, no sign-in. */
function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Muster</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

/** A student's page: English, then Spanish, as their notices are (common/student-texts.ts). */
function studentPage(reply: FastifyReply, title: StudentTextKey, paragraph: StudentTextKey, form = '') {
  const [en, es] = [studentT('en'), studentT('es')];
  const both = (key: StudentTextKey, tag: string) => `<${tag}>${escapeHtml(en(key))}</${tag}><${tag} lang="es">${escapeHtml(es(key))}</${tag}>`;
  return reply
    .status(200)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(en(title))} · Muster</title></head>` +
        `<body><main>${both(title, 'h1')}${both(paragraph, 'p')}${form}</main></body></html>`,
    );
}

const tokenQuery = z.object({ token: z.string().max(2000).optional() });
// The one answer to a token that does not open and to one that names no one (notifications/service.ts).
const NOT_OURS =
  '<p>This unsubscribe link is not valid. Copy the whole link from the e-mail, or change your notifications in Muster under Settings › Notifications.</p>';

export function notificationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // The one-click unsubscribe POST (RFC 8058) and this page's form are form-encoded.
    acceptFormPosts(app);

    app.get(
      '/api/notifications/channels',
      { config: { signedIn: true }, schema: { response: { 200: z.object({ email: z.boolean(), sms: z.boolean() }) } } },
      async () => deliveryChannels(deps.config),
    );

    app.get(
      '/unsubscribe',
      { config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } }, schema: { querystring: tokenQuery } },
      async (req, reply) => {
        const token = req.query.token ?? '';
        const link = await describeUnsubscribe(deps.db, deps.cipher, token);
        if (!link) return page(reply, 400, 'Link not valid', NOT_OURS);
        if (link.student) {
          const [en, es] = [studentT('en'), studentT('es')];
          const button = `${escapeHtml(en('unsubscribeButton'))} / <span lang="es">${escapeHtml(es('unsubscribeButton'))}</span>`;
          return studentPage(
            reply,
            'unsubscribeTitle',
            'unsubscribeAsk',
            `<form method="post" action="/unsubscribe"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">${button}</button></form>`,
          );
        }
        return page(
          reply,
          200,
          'Unsubscribe',
          `<p>Stop ${escapeHtml(link.what)}?</p><form method="post" action="/unsubscribe"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Unsubscribe</button></form>`,
        );
      },
    );

    app.post(
      '/unsubscribe',
      {
        config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          querystring: tokenQuery,
          body: z
            .object({ token: z.string().max(2000).optional() })
            .passthrough()
            .optional(),
        },
      },
      async (req, reply) => {
        const token = req.body?.token ?? req.query.token ?? '';
        const done = await applyUnsubscribe(deps.db, deps.cipher, token, deps.clock);
        if (!done) return page(reply, 400, 'Link not valid', NOT_OURS);
        if (done.student) return studentPage(reply, 'unsubscribedTitle', 'unsubscribed');
        return page(
          reply,
          200,
          'Unsubscribed',
          `<p>You will no longer receive ${escapeHtml(done.what)}. You can turn them on again in Muster under Settings › Notifications.</p>`,
        );
      },
    );
  };
}
