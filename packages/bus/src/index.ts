export * from './bus-logger';
export * from './captured-text';
export * from './decode-traffic-entry';
export * from './traffic-consumer';
export * from './traffic-publisher';
