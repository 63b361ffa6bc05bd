// The files feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { readMultipartUpload } from './multipart-http';
export { storeUpload } from './service';
export { readableFilesWhere } from './policy';
export type { Upload } from './service';
export { sniffUpload } from './sniff';
