import { ScorerError } from './scorer-error';

export interface JudgeScore {
  score: number;
  reason?: string;
}

const NUMBER = String.raw`-?(?:\d+(?:\.\d+)?|\.\d+)`;
// A number with an optional scale: `0.7`, `7/10`, `7 out of 10`, `70%`.
const SCALED = String.raw`(${NUMBER})\s*(?:(?:\/|out of)\s*(${NUMBER})|(%))?`;
const LABELLED = new RegExp(String.raw`\bscore\b[^0-9.\-\n]{0,12}?${SCALED}`, 'i');
const WHOLE = new RegExp(String.raw`^${SCALED}\.?$`, 'i');
const WITH_SCALE = new RegExp(String.raw`(${NUMBER})\s*(?:(?:\/|out of)\s*(${NUMBER})|(%))`, 'gi');
const FENCED = /```(?:json)?\s*([\s\S]*?)```/gi;

/**
 * Reads the 0..1 score out of a judge's answer. Models are asked for `{"score": x, "reason": "…"}`
 * but answer in many ways, so in order: a JSON object with `score` (bare, fenced, or inside
 * prose), then a labelled score (`Score: 0.8`, `**Score**: 7/10`), then an answer that is only a
 * number, and last a text holding exactly one scaled number (`I'd give it 80%`). Scales map to
 * 0..1 (`8/10` → 0.8, `80%` → 0.8); an unscaled number outside 0..1 is refused rather than guessed at.
 */
export function parseJudgeScore(content: string): JudgeScore {
  const fromJson = scoreFromJson(content);
  if (fromJson) return fromJson;

  const text = content.replace(/[*_`]/g, '').trim();
  const match = LABELLED.exec(text) ?? WHOLE.exec(text) ?? onlyScaledNumber(text);
  if (match) return { score: toUnit(match[1], match[2], match[3]) };
  throw new ScorerError(`the judge's answer holds no score: "${excerpt(content)}"`);
}

function scoreFromJson(content: string): JudgeScore | undefined {
  const candidates = [...[...content.matchAll(FENCED)].map((m) => m[1]), content];
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start >= 0 && end > start) candidates.push(content.slice(start, end + 1));
  for (const candidate of candidates) {
    const parsed = parseJson(candidate.trim());
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const key = Object.keys(parsed).find((k) => k.toLowerCase() === 'score');
    if (key === undefined) continue;
    const { reason } = parsed as { reason?: unknown };
    const score = scoreOfJsonValue((parsed as Record<string, unknown>)[key]);
    return typeof reason === 'string' ? { score, reason } : { score };
  }
  return undefined;
}

function scoreOfJsonValue(value: unknown): number {
  if (typeof value === 'number') return toUnit(String(value));
  const match = typeof value === 'string' ? WHOLE.exec(value.trim()) : null;
  if (!match) throw new ScorerError(`the judge's score is not a number: ${excerpt(JSON.stringify(value) ?? '')}`);
  return toUnit(match[1], match[2], match[3]);
}

function onlyScaledNumber(text: string): RegExpExecArray | null {
  const matches = [...text.matchAll(WITH_SCALE)];
  return matches.length === 1 ? (matches[0] as RegExpExecArray) : null;
}

function toUnit(value: string, scale?: string, percent?: string): number {
  const n = Number(value);
  const of = percent ? 100 : scale !== undefined ? Number(scale) : 1;
  if (!Number.isFinite(n) || !(of > 0) || n < 0 || n > of) {
    const shown = percent ? `${value}%` : scale !== undefined ? `${value}/${scale}` : value;
    throw new ScorerError(`the judge's score ${shown} is outside 0..${percent ? '100%' : of}`);
  }
  return of === 1 ? n : n / of;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
