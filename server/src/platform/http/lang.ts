import type { Lang } from '@pluma/common/constants';
import type { FastifyRequest } from 'fastify';

/** The user's saved language, else the browser's Accept-Language, else English. */
export function requestLang(request: FastifyRequest): Lang {
  const userLang = request.actor?.user.lang;
  if (userLang === 'es' || userLang === 'en') return userLang;
  const header = request.headers['accept-language'];
  if (typeof header === 'string') {
    const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
    if (first.startsWith('es')) return 'es';
  }
  return 'en';
}
