let processName: string | undefined;

/**
 * Names the process in every log line. nestjs-pino keeps one root logger per process,
 * so when several apps share a process (all-in-one) the process, not the app, names it.
 */
export function setLogProcessName(name: string): void {
  processName = name;
}

export const logProcessName = (fallback: string): string => processName ?? fallback;
