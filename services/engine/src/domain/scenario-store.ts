import type { StubMapping } from '@mockyard/matching';

export const STARTED = 'Started';

export interface Scenario {
  id: string;
  name: string;
  state: string;
  possibleStates: string[];
}

/**
 * Scenario states, WireMock style: a scenario exists while some stub names it, starts in "Started",
 * and its possible states are the ones its stubs require or set.
 */
export class ScenarioStore {
  private readonly states = new Map<string, string>();

  /** Current state of a scenario ("Started" when never advanced). */
  stateOf(name: string): string {
    return this.states.get(name) ?? STARTED;
  }

  set(name: string, state: string) {
    this.states.set(name, state);
  }

  reset(name?: string) {
    if (name === undefined) this.states.clear();
    else this.states.delete(name);
  }

  /** Drops state of scenarios no stub names any more. */
  prune(stubs: readonly StubMapping[]) {
    const names = new Set(stubs.map((s) => s.scenarioName).filter((n): n is string => !!n));
    for (const name of [...this.states.keys()]) if (!names.has(name)) this.states.delete(name);
  }

  list(stubs: readonly StubMapping[]): Scenario[] {
    const possible = new Map<string, Set<string>>();
    for (const stub of stubs) {
      if (!stub.scenarioName) continue;
      let set = possible.get(stub.scenarioName);
      if (!set) possible.set(stub.scenarioName, (set = new Set([STARTED])));
      if (stub.requiredScenarioState) set.add(stub.requiredScenarioState);
      if (stub.newScenarioState) set.add(stub.newScenarioState);
    }
    return [...possible.entries()].map(([name, states]) => ({ id: name, name, state: this.stateOf(name), possibleStates: [...states] }));
  }
}
