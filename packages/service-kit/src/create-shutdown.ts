import type { Logger } from 'pino';

export interface Shutdown {
  /** Registers a step; steps run in reverse order of registration (last started, first stopped). */
  add(name: string, step: () => Promise<unknown> | unknown): void;
  /** Runs every step once, within the time limit; resolves to the exit code to use. */
  run(reason: string): Promise<number>;
  readonly isShuttingDown: boolean;
}

/** The single shutdown path of a service: stop intake, drain, close clients — bounded in time. */
export function createShutdown(logger: Logger, timeoutMs: number): Shutdown {
  const steps: { name: string; step: () => Promise<unknown> | unknown }[] = [];
  let running: Promise<number> | undefined;
  return {
    add(name, step) {
      steps.push({ name, step });
    },
    get isShuttingDown() {
      return running !== undefined;
    },
    run(reason) {
      running ??= (async () => {
        logger.info({ reason }, 'shutting down');
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
          timer.unref();
        });
        let failed = false;
        const all = (async () => {
          for (const { name, step } of [...steps].reverse()) {
            try {
              await step();
            } catch (err) {
              failed = true;
              logger.warn({ err, step: name }, 'shutdown step failed');
            }
          }
        })();
        const outcome = await Promise.race([all.then(() => 'done' as const), timedOut]);
        clearTimeout(timer);
        if (outcome === 'timeout') {
          logger.warn({ timeoutMs }, 'shutdown timed out; exiting anyway');
          return 1;
        }
        logger.info('shut down');
        return failed ? 1 : 0;
      })();
      return running;
    },
  };
}
