import type { StackRegistryGlobal } from './shared-stacks-setup';

/** After the e2e suite's last file: stops the shared stacks and says how many stacks the run started. */
export default async function stopStackRegistry(): Promise<void> {
  const registry = (globalThis as StackRegistryGlobal).cinetraceStackRegistry;
  if (!registry) return;
  delete (globalThis as StackRegistryGlobal).cinetraceStackRegistry;
  console.log(await registry.close());
}
