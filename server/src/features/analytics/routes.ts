// GET /api/analytics/words, customers, purchases, income, monthly, free_trials (spec part 1 §7), and beyond
// the spec ai_usage. Staff (admins and managers) only. The spec's /analytics/reservations, /instructors,
// /instructors/report and /videos have no meaning in Pluma and are not registered (404; docs/decisions.md
// "Analytics").
import {
  aiUsageAnalytics,
  analyticsQuery,
  customersAnalytics,
  customersAnalyticsQuery,
  freeTrialsAnalytics,
  incomeAnalytics,
  monthlyAnalytics,
  purchasesAnalytics,
  wordsAnalytics,
} from '@pluma/common/analytics';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import * as analytics from './service';

export async function analyticsRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ['analytics'];
  const staff = { staff: 'manager' } as const;

  app.get('/income', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: incomeAnalytics } }, staff), async (request) =>
    analytics.incomeAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
  app.get('/customers', signedIn(app, { tags, querystring: customersAnalyticsQuery, response: { 200: customersAnalytics } }, staff), async (request) =>
    analytics.customersAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query), expand: { list: request.query.list, page: request.query.page } }),
  );
  app.get('/purchases', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: purchasesAnalytics } }, staff), async (request) =>
    analytics.purchasesAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
  app.get('/words', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: wordsAnalytics } }, staff), async (request) =>
    analytics.wordsAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
  app.get('/monthly', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: monthlyAnalytics } }, staff), async (request) =>
    analytics.monthlyAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
  app.get('/free_trials', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: freeTrialsAnalytics } }, staff), async (request) =>
    analytics.freeTrialsAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
  app.get('/ai_usage', signedIn(app, { tags, querystring: analyticsQuery, response: { 200: aiUsageAnalytics } }, staff), async (request) =>
    analytics.aiUsageAnalytics({ actor: actorOf(request), db, range: analytics.analyticsRange(request.query) }),
  );
}
