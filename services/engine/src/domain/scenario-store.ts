import type { StubMapping } from '@mockyard/matching';

export const STARTED = 'Started';

export interface Scenario {
  id: string;
  name: string;
  state: string;
  possibleStates: string[];
  mappings: StubMapping[];
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
    const possible = new Map<string, { states: Set<string>; mappings: StubMapping[] }>();
    for (const stub of stubs) {
      if (!stub.scenarioName) continue;
      let entry = possible.get(stub.scenarioName);
      if (!entry) possible.set(stub.scenarioName, (entry = { states: new Set([STARTED]), mappings: [] }));
      if (stub.requiredScenarioState) entry.states.add(stub.requiredScenarioState);
      if (stub.newScenarioState) entry.states.add(stub.newScenarioState);
      entry.mappings.push(stub);
    }
    return [...possible.entries()].map(([name, { states, mappings }]) => ({ id: name, name, state: this.stateOf(name), possibleStates: [...states], mappings }));
  }
}
