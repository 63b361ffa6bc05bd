// The logger a service may be handed (the request's or the app's pino logger), without services
// depending on Fastify (DESIGN.md §7; lint: services never import fastify).
import type { FastifyBaseLogger } from 'fastify';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
