import type { MediaProbe } from './probe-media';

/** What a media was asked to be (video_conformance's `expected`); each field is checked only when given. */
export interface ConformanceSpec {
  width?: number;
  height?: number;
  fps?: number;
  durationMs?: number;
  /** How far the duration may be off; default DEFAULT_DURATION_TOLERANCE_MS. */
  toleranceMs?: number;
  hasAudio?: boolean;
  /** The video codec as ffprobe names it (`h264`, `hevc`, `vp9`, `av1`); container tags (`avc1`, `hvc1`) count as theirs. */
  codec?: string;
}

export const CONFORMANCE_FIELDS = ['width', 'height', 'fps', 'durationMs', 'hasAudio', 'codec'] as const;
export type ConformanceField = (typeof CONFORMANCE_FIELDS)[number];

export interface Mismatch {
  field: ConformanceField;
  expected: number | boolean | string;
  actual: number | boolean | string | null;
}

export interface Conformance {
  /** The fields that were checked and matched, as a share of those checked (1 when all match). */
  score: number;
  checked: ConformanceField[];
  mismatches: Mismatch[];
}

export const DEFAULT_DURATION_TOLERANCE_MS = 100;
/** Frame rates within 1% match: 29.97 is the 30 a prompt asked for, 25 is not. */
export const FPS_RELATIVE_TOLERANCE = 0.01;

const CODEC_ALIASES: Record<string, string> = { avc: 'h264', avc1: 'h264', h265: 'hevc', hvc1: 'hevc', hev1: 'hevc', vp09: 'vp9', av01: 'av1' };
const codecName = (name: string) => {
  const codec = name.trim().toLowerCase();
  return Object.hasOwn(CODEC_ALIASES, codec) ? CODEC_ALIASES[codec] : codec;
};

/** Compares a probe with a spec, field by field. */
export function checkConformance(probe: MediaProbe, spec: ConformanceSpec): Conformance {
  const tolerance = spec.toleranceMs ?? DEFAULT_DURATION_TOLERANCE_MS;
  const matches: Record<ConformanceField, (expected: never) => boolean> = {
    width: (expected: number) => probe.width === expected,
    height: (expected: number) => probe.height === expected,
    fps: (expected: number) => probe.fps !== null && Math.abs(probe.fps - expected) <= expected * FPS_RELATIVE_TOLERANCE,
    durationMs: (expected: number) => probe.durationMs !== null && Math.abs(probe.durationMs - expected) <= tolerance,
    hasAudio: (expected: boolean) => probe.hasAudio === expected,
    codec: (expected: string) => probe.videoCodec !== null && codecName(probe.videoCodec) === codecName(expected),
  };
  const actual: Record<ConformanceField, Mismatch['actual']> = {
    width: probe.width,
    height: probe.height,
    fps: probe.fps,
    durationMs: probe.durationMs,
    hasAudio: probe.hasAudio,
    codec: probe.videoCodec,
  };
  const checked = CONFORMANCE_FIELDS.filter((field) => spec[field] !== undefined);
  const mismatches = checked.filter((field) => !matches[field](spec[field] as never)).map((field) => ({ field, expected: spec[field]!, actual: actual[field] }));
  return { score: checked.length === 0 ? 1 : (checked.length - mismatches.length) / checked.length, checked, mismatches };
}
