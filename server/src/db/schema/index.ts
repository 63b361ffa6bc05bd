export * from './accounts';
export * from './platform';
export * from './commerce';
export * from './jobs';
export * from './chat';
export * from './groups';
export * from './daily-figures';
