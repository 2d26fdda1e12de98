/** One engine the hub can talk to: the local one (id "local") or a registered server (UUID). */
export interface EngineRef {
  id: string;
  name: string;
  /** Base URL; may be https and carry a path prefix (the admin API is at `<url>/__admin`). */
  url: string;
  isLocal: boolean;
}

export function summarizeEngine(engine: EngineRef) {
  return { id: engine.id, name: engine.name, url: engine.url };
}
