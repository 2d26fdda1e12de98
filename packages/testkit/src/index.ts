export * from './test-database';
export * from './test-redis';
export * from './free-port';
export * from './start-stack';
export * from './own-redis';
export * from './test-env';
