// The knowledge feature's public face (issue 13 item 3): what other features may use (eslint.config.js,
// feature boundaries). Files are indexed by id; the caller decides who may use them (avatars, conversations).
export { knowledgeRoutes } from './routes';
export { fileIndexStatuses, queueFileIndexing, reindex, KNOWLEDGE_QUEUE, type IndexFailure, type IndexStatus, type KnowledgeFileRow } from './indexing';
export { searchPassages, wholeFileText, DEFAULT_PASSAGES, MAX_PASSAGES, type Passage } from './search';
export { presentIndexStatus, indexStatusResponse, type IndexStatusJson } from './present';
