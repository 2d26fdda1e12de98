/** The slice of a pino logger the bus needs (keeps pino out of this package's dependencies). */
export interface BusLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
