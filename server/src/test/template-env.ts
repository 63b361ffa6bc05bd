/** Environment variables naming the run's template databases (global-setup.ts): a tar file for PGlite, a database name for PostgreSQL. */
export const TEMPLATE_ENV = { pglite: 'PLUMA_TEST_PGLITE_TEMPLATE', postgres: 'PLUMA_TEST_PG_TEMPLATE' } as const;
