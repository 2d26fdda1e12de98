export * from './problem';
export * from './page';
export * from './traffic-event';
export * from './logged-exchange';
export * from './managed-server';
export * from './stub-mapping';
export * from './proxy-status';
export * from './streams';
