export default async function globalTeardown(): Promise<void> {
  const containers = (globalThis as { __mockyardContainers?: { stop(): Promise<unknown> }[] }).__mockyardContainers ?? [];
  await Promise.all(containers.map((c) => c.stop()));
}
