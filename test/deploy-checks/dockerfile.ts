export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
  line: number;
}

export interface Stage {
  name?: string;
  from: string;
  instructions: Instruction[];
}

/** Instructions of a Dockerfile: comments dropped, `\`-continued lines joined. */
export function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (!pending && /^\s*(#.*)?$/.test(line)) return;
    if (pending && /^\s*#/.test(line)) return; // comment lines inside a continued instruction
    if (!pending) start = index + 1;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      return;
    }
    const full = (pending + line).trim();
    pending = '';
    const match = /^(\S+)\s*(.*)$/s.exec(full);
    if (match) result.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start });
  });
  return result;
}

/** The build stages, in order (global ARGs before the first FROM are left out). */
export function stages(text: string): Stage[] {
  const result: Stage[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(instruction.args);
      result.push({ from: match?.[1] ?? '', name: match?.[2], instructions: [] });
    } else if (result.length) {
      result[result.length - 1].instructions.push(instruction);
    }
  }
  return result;
}

/** An exec-form (`["a", "b"]`) argument list, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export const lastOf = (stage: Stage, keyword: string): Instruction | undefined => [...stage.instructions].reverse().find((i) => i.keyword === keyword);

export const allOf = (stage: Stage, keyword: string): Instruction[] => stage.instructions.filter((i) => i.keyword === keyword);

/** Names an ARG instruction declares (`ARG A`, `ARG A=1 B`). */
export const argNames = (instruction: Instruction): string[] =>
  instruction.args
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => a.split('=')[0]);

/** `ENV A=x B=y` / legacy `ENV A x` as a map. */
export function envPairs(instruction: Instruction): Record<string, string> {
  const args = instruction.args;
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [name, ...rest] = args.split(/\s+/);
    return { [name]: rest.join(' ') };
  }
  const pairs: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) pairs[m[1]] = m[2].replace(/^"|"$/g, '');
  return pairs;
}

/** Variables used in `text` (`$A`, `${A}`, `${A:-x}`). */
export const variablesUsed = (text: string): string[] => [...text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
