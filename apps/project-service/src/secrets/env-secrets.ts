import { ReadFile, readFromDisk, resolveSecretFiles } from '@cinetrace/config';
import { SECRET_HOST_ENTRY_SOURCE } from '@cinetrace/contracts';

const ENV_NAME = '[A-Z_][A-Z0-9_]{0,99}';
const HOST = SECRET_HOST_ENTRY_SOURCE;
const ENTRY = `${ENV_NAME}(@(?:${HOST})(\\|(?:${HOST}))*)?`;
/** `NAME` or `NAME@host|host`, comma-separated; a host as in allowedHosts (`api.example.com`, `https://api.example.com:8443`). */
export const ENV_SECRETS_PATTERN = new RegExp(`^\\s*${ENTRY}(\\s*,\\s*${ENTRY})*\\s*$`);

/** A variable the operator offers as a secret: its name and the hosts it may go to (empty: any). */
export interface EnvSecret {
  name: string;
  allowedHosts: string[];
}

/**
 * The operator's allow-list (OUTBOUND_ENV_SECRETS) over the process environment. A name is
 * readable only when listed; the environment itself is held here and nowhere else.
 */
export class EnvSecrets {
  private readonly listed = new Map<string, EnvSecret>();

  /**
   * Over the process environment, where every listed NAME may instead be given as
   * `<NAME>_FILE` (a mounted secret), read once here at boot as the connection secrets are
   * (resolveSecretFiles: both set, or a file that cannot be read, stops the boot naming it).
   * Only listed names are looked at: an unlisted `<NAME>_FILE` is never read.
   */
  static fromEnvironment(allowList: string | undefined, env: NodeJS.ProcessEnv, read: ReadFile = readFromDisk): EnvSecrets {
    const names = [...new EnvSecrets(allowList, {}).listed.keys()];
    return new EnvSecrets(allowList, resolveSecretFiles(env, names, read));
  }

  constructor(
    allowList: string | undefined,
    private readonly env: Record<string, string | undefined>,
  ) {
    for (const entry of (allowList ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [name, hosts = ''] = entry.split('@');
      this.listed.set(name, { name, allowedHosts: hosts.split('|').filter(Boolean) });
    }
  }

  /** Listed names bound to no host: any organization may send them to any host the outbound rules allow. */
  unbound(): string[] {
    return [...this.listed.values()].filter((s) => s.allowedHosts.length === 0).map((s) => s.name);
  }

  /** The listed secret of that name, or undefined: an unlisted name is never looked up. */
  find(name: string): EnvSecret | undefined {
    return this.listed.get(name);
  }

  /** Its value, or undefined when it is unlisted or unset. */
  value(name: string): string | undefined {
    if (!this.listed.has(name)) return undefined;
    const value = this.env[name];
    return value ? value : undefined;
  }
}
