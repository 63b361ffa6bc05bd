// Catalog products (`/v1/catalogs/products`, which the SDK lacks) and billing plans
// (`/v1/billing/plans`, in the SDK's SubscriptionsController): create, get, list; plans can also be
// activated and deactivated. A plan has at most two TRIAL cycles (free without a price) and one
// REGULAR cycle; `total_cycles: 0` on the regular cycle bills until cancelled.
import { BodyCheck, notFound, unprocessable } from './errors';
import { isoTime, link, paginate, ppId, snapshot, type Ctx, type Json, type Route } from './store';

const PRODUCT_TYPES = ['PHYSICAL', 'DIGITAL', 'SERVICE'];
const INTERVAL_UNITS: Record<string, number> = { DAY: 365, WEEK: 52, MONTH: 12, YEAR: 1 };

function createProduct(ctx: Ctx, body: Json) {
  const check = new BodyCheck('catalog-products/v1');
  const id = check.text(body, 'id', '', { max: 50 });
  const name = check.text(body, 'name', '', { required: true, max: 127 });
  const type = check.text(body, 'type', '', { required: true });
  if (type && !PRODUCT_TYPES.includes(type)) check.invalid('/type', type);
  const optional: Json = {};
  for (const key of ['description', 'category', 'image_url', 'home_url']) {
    const value = check.text(body, key, '', { max: key === 'description' ? 256 : 2000 });
    if (value !== undefined) optional[key] = value;
  }
  check.done();
  if (id && ctx.state.products.has(id)) throw unprocessable('DUPLICATE_RESOURCE_IDENTIFIER', 'A resource with the same identifier already exists.', 'catalog-products/v1');
  const productId = id ?? `PROD-${ppId(17)}`;
  const now = isoTime();
  const self = `${ctx.origin}/v1/catalogs/products/${productId}`;
  const product = { id: productId, name: name!, ...optional, type: type!, create_time: now, update_time: now, links: [link(self, 'self'), link(self, 'edit', 'PATCH')] };
  ctx.state.products.set(productId, product);
  return { status: 201, body: snapshot(product) };
}

function product(ctx: Ctx, id: string) {
  const found = ctx.state.products.get(id);
  if (!found) throw notFound('catalog-products/v1', 'The specified resource ID does not exist.');
  return found;
}

/** Validates `billing_cycles` and gives them back in PayPal's stored shape (pricing scheme versioned). */
function billingCycles(check: BodyCheck, raw: unknown, now: string): Json[] {
  if (raw === undefined) {
    check.missing('/billing_cycles');
    return [];
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 12) {
    check.invalid('/billing_cycles', raw, 'INVALID_ARRAY_MAX_ITEMS', 'The number of billing cycles must be between 1 and 12.');
    return [];
  }
  const cycles = raw.map((item: unknown, i) => {
    const path = `/billing_cycles/${i}`;
    const cycle = item && typeof item === 'object' ? (item as Json) : {};
    const frequency = (cycle.frequency as Json | undefined) ?? undefined;
    if (!frequency) check.missing(`${path}/frequency`);
    const unit = frequency ? check.text(frequency, 'interval_unit', `${path}/frequency`, { required: true }) : undefined;
    const count = frequency?.interval_count === undefined ? 1 : Number(frequency.interval_count);
    if (unit && !(unit in INTERVAL_UNITS)) check.invalid(`${path}/frequency/interval_unit`, unit);
    else if (unit && (!Number.isInteger(count) || count < 1 || count > INTERVAL_UNITS[unit])) check.invalid(`${path}/frequency/interval_count`, count);
    const tenure = check.text(cycle, 'tenure_type', path, { required: true });
    if (tenure && tenure !== 'REGULAR' && tenure !== 'TRIAL') check.invalid(`${path}/tenure_type`, tenure);
    const sequence = Number(cycle.sequence);
    if (cycle.sequence === undefined) check.missing(`${path}/sequence`);
    else if (!Number.isInteger(sequence) || sequence < 1 || sequence > 99) check.invalid(`${path}/sequence`, cycle.sequence);
    const total = cycle.total_cycles === undefined ? 1 : Number(cycle.total_cycles);
    if (!Number.isInteger(total) || total < 0 || total > 999 || (tenure === 'TRIAL' && total === 0)) check.invalid(`${path}/total_cycles`, cycle.total_cycles);
    const scheme = (cycle.pricing_scheme as Json | undefined) ?? undefined;
    const price = scheme ? check.money(scheme, 'fixed_price', `${path}/pricing_scheme`, tenure === 'REGULAR') : undefined;
    if (!scheme && tenure === 'REGULAR') check.missing(`${path}/pricing_scheme`);
    return {
      ...(price ? { pricing_scheme: { version: 1, fixed_price: price, create_time: now, update_time: now } } : {}),
      frequency: { interval_unit: unit, interval_count: count },
      tenure_type: tenure,
      sequence,
      total_cycles: total,
    };
  });
  const regular = cycles.filter((c) => c.tenure_type === 'REGULAR').length;
  const trials = cycles.filter((c) => c.tenure_type === 'TRIAL').length;
  if (regular !== 1 || trials > 2) check.invalid('/billing_cycles', raw, 'INVALID_PARAMETER_VALUE', 'A plan has exactly one REGULAR billing cycle and at most two TRIAL cycles.');
  if (new Set(cycles.map((c) => c.sequence)).size !== cycles.length) check.invalid('/billing_cycles', raw, 'INVALID_PARAMETER_VALUE', 'Billing cycle sequences must be unique.');
  return cycles.sort((a, b) => a.sequence - b.sequence);
}

function planSummary(plan: Json): Json {
  const { id, product_id, name, status, description, usage_type, create_time, links } = plan;
  return snapshot({ id, product_id, name, status, ...(description ? { description } : {}), usage_type, create_time, links });
}

function planLinks(ctx: Ctx, id: string, status: string) {
  const self = `${ctx.origin}/v1/billing/plans/${id}`;
  return [link(self, 'self'), link(self, 'edit', 'PATCH'), status === 'ACTIVE' ? link(`${self}/deactivate`, 'self', 'POST') : link(`${self}/activate`, 'self', 'POST')];
}

function createPlan(ctx: Ctx, body: Json, representation: boolean) {
  const check = new BodyCheck('subscriptions/v1');
  const productId = check.text(body, 'product_id', '', { required: true, max: 50 });
  const name = check.text(body, 'name', '', { required: true, max: 127 });
  const description = check.text(body, 'description', '', { max: 127 });
  const status = check.text(body, 'status', '') ?? 'ACTIVE';
  if (!['CREATED', 'INACTIVE', 'ACTIVE'].includes(status)) check.invalid('/status', status);
  const now = isoTime();
  const cycles = billingCycles(check, body.billing_cycles, now);
  const prefs = (body.payment_preferences as Json | undefined) ?? {};
  const setupFee = check.money(prefs, 'setup_fee', '/payment_preferences', false);
  check.done();
  if (!ctx.state.products.has(productId!)) {
    throw unprocessable('INVALID_PRODUCT_ID', `The product id ${productId} is invalid or does not exist.`, 'subscriptions/v1');
  }
  const id = `P-${ppId(24)}`;
  const plan = {
    id,
    product_id: productId!,
    name: name!,
    status,
    ...(description ? { description } : {}),
    usage_type: 'LICENSED',
    billing_cycles: cycles,
    payment_preferences: {
      service_type: 'PREPAID',
      auto_bill_outstanding: prefs.auto_bill_outstanding !== false,
      setup_fee: setupFee ?? { currency_code: (cycles.find((c) => c.pricing_scheme)?.pricing_scheme as { fixed_price?: { currency_code: string } })?.fixed_price?.currency_code ?? 'USD', value: '0' },
      setup_fee_failure_action: prefs.setup_fee_failure_action === 'CONTINUE' ? 'CONTINUE' : 'CANCEL',
      payment_failure_threshold: Number(prefs.payment_failure_threshold ?? 0) || 0,
    },
    ...(body.taxes ? { taxes: body.taxes } : {}),
    quantity_supported: body.quantity_supported === true,
    create_time: now,
    update_time: now,
    links: planLinks(ctx, id, status),
  };
  ctx.state.plans.set(id, plan);
  return { status: 201, body: representation ? snapshot(plan) : planSummary(plan) };
}

export function plan(ctx: Ctx, id: string) {
  const found = ctx.state.plans.get(id);
  if (!found) throw notFound('subscriptions/v1', 'The specified resource ID does not exist.');
  return found;
}

function setPlanStatus(ctx: Ctx, id: string, status: 'ACTIVE' | 'INACTIVE') {
  const found = plan(ctx, id);
  const allowed = status === 'ACTIVE' ? ['CREATED', 'INACTIVE'] : ['ACTIVE'];
  if (!allowed.includes(found.status)) {
    throw unprocessable('PLAN_STATUS_INVALID', `Invalid plan status for ${status === 'ACTIVE' ? 'activate' : 'deactivate'} action; plan status should be ${allowed.join(' or ').toLowerCase()}.`, 'subscriptions/v1');
  }
  found.status = status;
  found.update_time = isoTime();
  found.links = planLinks(ctx, id, status);
  return { status: 204 };
}

export const catalogRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/catalogs/products', handle: (ctx, { body }) => createProduct(ctx, body) },
  { method: 'GET', pattern: '/v1/catalogs/products/:id', handle: (ctx, { ids }) => ({ status: 200, body: snapshot(product(ctx, ids.id)) }) },
  {
    method: 'GET',
    pattern: '/v1/catalogs/products',
    handle: (ctx, { query }) => {
      const items = [...ctx.state.products.values()].map((p) => snapshot({ id: p.id, name: p.name, ...(p.description ? { description: p.description } : {}), create_time: p.create_time, links: [(p.links as Json[])[0]] }));
      return { status: 200, body: paginate(items, query, 'products', 20, `${ctx.origin}/v1/catalogs/products`) };
    },
  },
  { method: 'POST', pattern: '/v1/billing/plans', handle: (ctx, { body, representation }) => createPlan(ctx, body, representation) },
  { method: 'GET', pattern: '/v1/billing/plans/:id', handle: (ctx, { ids }) => ({ status: 200, body: snapshot(plan(ctx, ids.id)) }) },
  {
    method: 'GET',
    pattern: '/v1/billing/plans',
    handle: (ctx, { query }) => {
      const productId = query.get('product_id');
      const items = [...ctx.state.plans.values()].filter((p) => !productId || p.product_id === productId).map(planSummary);
      return { status: 200, body: paginate(items, query, 'plans', 20, `${ctx.origin}/v1/billing/plans`) };
    },
  },
  { method: 'POST', pattern: '/v1/billing/plans/:id/activate', handle: (ctx, { ids }) => setPlanStatus(ctx, ids.id, 'ACTIVE') },
  { method: 'POST', pattern: '/v1/billing/plans/:id/deactivate', handle: (ctx, { ids }) => setPlanStatus(ctx, ids.id, 'INACTIVE') },
];
