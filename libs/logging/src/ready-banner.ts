import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { logFormat } from './log-format';

/** What a person needs once the service answers: where it is, and where its key is. */
export interface ReadyFacts {
  mode: 'all-in-one' | 'distributed';
  host: string;
  port: number;
  /** 0: OTLP/gRPC is off. */
  otlpGrpcPort: number;
  /** Where the bootstrap key was written (`<DATA_DIR>/bootstrap-api-key`). */
  keyFile: string;
  /** BOOTSTRAP_API_KEY (or its _FILE) was set: the operator chose the key. */
  keyFromEnvironment: boolean;
}

/** A wildcard address is not one to open in a browser. */
const visibleHost = (host: string) => (['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host);

function keyWhere(facts: ReadyFacts): { text: string; shell: string | null } {
  if (facts.keyFromEnvironment) return { text: 'the BOOTSTRAP_API_KEY you set', shell: '$BOOTSTRAP_API_KEY' };
  if (existsSync(facts.keyFile)) {
    const shown = relative(process.cwd(), facts.keyFile);
    const path = shown && !shown.startsWith('..') ? `./${shown}` : facts.keyFile;
    return { text: `in ${path} (printed once, at the first start)`, shell: `$(cat ${path})` };
  }
  return { text: 'printed once, at the first start (its file has been removed since)', shell: null };
}

/** The lines a person at a terminal reads once the service is ready. */
export function readyBanner(facts: ReadyFacts): string {
  const base = `http://${visibleHost(facts.host)}:${facts.port}`;
  const key = keyWhere(facts);
  const otlp = `${base}/v1/traces` + (facts.otlpGrpcPort ? `, gRPC ${visibleHost(facts.host)}:${facts.otlpGrpcPort}` : '');
  const lines = [
    '',
    `  Cinetrace is ready (${facts.mode})`,
    '',
    `  Console   ${base}/`,
    `  API       ${base}/api/v1      reference: ${base}/docs`,
    `  OTLP      ${otlp}`,
    `  API key   ${key.text}`,
    '',
    key.shell ? `  Try:      curl -H "Authorization: Bearer ${key.shell}" ${base}/api/v1/projects` : `  Try:      open ${base}/ and sign in with your API key`,
    '',
  ];
  return lines.join('\n');
}

/** The same facts as one log line, for JSON logs (no key, only where it is). */
export function readyLine(facts: ReadyFacts): string {
  const base = `http://${visibleHost(facts.host)}:${facts.port}`;
  return (
    `Ready (${facts.mode}): console ${base}/, API ${base}/api/v1, OTLP ${base}/v1/traces` +
    (facts.otlpGrpcPort ? ` and gRPC :${facts.otlpGrpcPort}` : '') +
    `; API key ${keyWhere(facts).text}`
  );
}

/** Says the service is ready: the banner at a terminal (pretty logs), one log line otherwise. */
export function announceReady(facts: ReadyFacts, log: (line: string) => void, write = (text: string) => process.stdout.write(text)): void {
  if (logFormat() === 'pretty') write(`${readyBanner(facts)}\n`);
  else log(readyLine(facts));
}
