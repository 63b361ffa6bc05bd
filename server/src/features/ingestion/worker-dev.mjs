// Runs worker.ts from source (tests, `npm run dev`): worker threads do not inherit the TypeScript loader of
// the main thread, so this registers tsx first. The built server uses dist/ingestion-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
