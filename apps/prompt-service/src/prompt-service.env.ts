import { ServiceEnv } from '@cinetrace/config';

/** Environment of prompt-service; validated at boot (see validateEnv): the bus, its store, logs and probes. It asks no other service, so it has no bus timeout of its own. */
export class PromptServiceEnv extends ServiceEnv {}
