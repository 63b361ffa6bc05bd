// The ingestion pipeline's public face (issue 27): reading users' files safely, for every feature that takes one.
export { readFileChunks, readFileText, readUploadText, fileReadError } from './read';
export { FileReadFailure } from './failure';
export { IngestionBusyError, ingestionPoolDefaults } from './pool';
export { cleanText, isKnowledgeFileType, KNOWLEDGE_FILE_TYPES, type KnowledgeFileType, type TextBlock } from './extract';
export { detectLanguage, textFromChunks, type KnowledgeLanguage, type TextChunk } from './chunk';
export type { ReadChunks, ReadText } from './worker';
