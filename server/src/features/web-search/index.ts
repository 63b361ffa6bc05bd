// The web-search feature's public face (issue 32): what the messages feature calls before an answer.
export { groundDocument, groundOnWeb, searchWeb } from './service';
export type { WebGroundingJob, WebSearchOutcome } from './service';
export { webSearchSettings, WEB_SEARCH_PROVIDERS } from './providers';
