export * from './parse-properties';
export * from './load-config';
export * from './datasource';
export * from './common-fields';
