import type { Shutdown } from './create-shutdown';

/**
 * Wires SIGTERM/SIGINT to the service's one shutdown path and exits with its code. Called from
 * main.ts only, which hands in the process it owns. Repeated signals (a terminal's Ctrl-C reaches the
 * whole process group, and a supervisor may forward another) join the shutdown already running
 * instead of killing the process mid-drain.
 */
export function handleSignals(proc: NodeJS.Process, shutdown: Shutdown): void {
  const onSignal = (signal: NodeJS.Signals) => {
    void shutdown.run(signal).then((code) => proc.exit(code));
  };
  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);
}
