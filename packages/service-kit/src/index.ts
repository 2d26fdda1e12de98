export * from './create-logger';
export * from './http-problem';
export * from './parse-input';
export * from './create-service-app';
export * from './api-registry';
export * from './start-server';
export * from './create-shutdown';
export * from './handle-signals';
