import type { Shutdown } from './create-shutdown';

/**
 * Wires SIGTERM/SIGINT to the service's one shutdown path and exits with its code. Called from
 * main.ts only, which hands in the process it owns.
 */
export function handleSignals(proc: NodeJS.Process, shutdown: Shutdown): void {
  const onSignal = (signal: NodeJS.Signals) => {
    void shutdown.run(signal).then((code) => proc.exit(code));
  };
  proc.once('SIGTERM', onSignal);
  proc.once('SIGINT', onSignal);
}
