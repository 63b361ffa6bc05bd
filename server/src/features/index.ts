// Every feature's routes, mounted under /api. Add one line per feature.
import type { FastifyInstance } from 'fastify';
import { outboxRoutes } from '../platform/mail/outbox-routes';
import { authRoutes } from './auth/routes';
import { usersRoutes } from './users/routes';
import { adminUsersRoutes } from './users/admin-routes';
import { staffRoutes } from './staff/routes';
import { listModelsRoute } from './models/routes';
import { appConfigRoutes } from './appconfig/routes';
import { fileRoutes } from './files/routes';
import { conversationRoutes } from './conversations/routes';
import { messageRoutes } from './messages/routes';
import { accessRoutes } from './purchases/access-routes';
import { productRoutes } from './products/routes';
import { discountRoutes } from './discounts/routes';
import { paymentRoutes } from './payments/routes';
import { payPalRoutes } from './paypal/routes';
import { ownPurchaseRoutes } from './purchases/own-routes';
import { adminPurchaseRoutes } from './purchases-admin/routes';
import { analyticsRoutes } from './analytics/routes';
import { organizationMemberRoutes, organizationRoutes } from './organizations';
import { groupRoutes } from './groups';

export async function featureRoutes(app: FastifyInstance) {
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(usersRoutes, { prefix: '/users' });
  await app.register(adminUsersRoutes, { prefix: '/users' });
  await app.register(staffRoutes, { prefix: '/staff' });
  await app.register(outboxRoutes, { prefix: '/admin' });
  await app.register(listModelsRoute);
  await app.register(appConfigRoutes);
  await app.register(fileRoutes);
  await app.register(conversationRoutes);
  await app.register(messageRoutes);
  await app.register(accessRoutes, { prefix: '/users' });
  await app.register(productRoutes);
  await app.register(discountRoutes);
  await app.register(paymentRoutes);
  await app.register(payPalRoutes);
  await app.register(ownPurchaseRoutes);
  await app.register(adminPurchaseRoutes);
  await app.register(analyticsRoutes, { prefix: '/analytics' });
  await app.register(organizationRoutes);
  await app.register(organizationMemberRoutes);
  await app.register(groupRoutes);
}
