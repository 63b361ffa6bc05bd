// `node dist/pglite-template.js`: makes dist/pglite-template, the migrated database a new DATA_DIR starts
// as a copy of (pglite-template.ts). build.mjs runs it after bundling.
import { migrationsFolder, openPglite } from './client';
import { buildTemplate, templateDir } from './pglite-template';

const folder = migrationsFolder();
const started = performance.now();
await buildTemplate(templateDir(folder), folder, async (dataDir) => {
  const database = await openPglite(dataDir);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
});
console.log(`pglite-template: migrated template database made in ${Math.round(performance.now() - started)} ms`);
