import { analyseVideo, checkConformance, compareVideo, CONFORMANCE_FIELDS, coveredMs, MediaAnalysisError, type ConformanceSpec, type QaFinding } from '@cinetrace/media-tools';
import { valueAtPath } from './field-path';
import { scoredExpected, scoredOutput } from './scored-values';
import type { MediaAccess, OpenedMedia, ScoreInput, ScoreOutcome, ScorerDeps, ScorerSpecOf, VideoScorerType } from './scorer.types';
import { ScorerError } from './scorer-error';

/** Findings kept in a score's details; the rest are counted (a flickering hour would otherwise be thousands). */
export const MAX_FINDINGS = 100;

type VideoSpec = ScorerSpecOf<VideoScorerType>;

/**
 * The video scorers (API.md, Benchmarks, "Video scorers"): each opens the media the output
 * names (`config.field` picks it), analyses it with ffmpeg in a child process bounded by the
 * attempt's remaining time, and removes its temporary files, whatever happens.
 */
export async function scoreVideo(spec: VideoSpec, item: ScoreInput, deps: ScorerDeps): Promise<ScoreOutcome> {
  const media = deps.media;
  if (!media) throw new ScorerError('video scorers cannot run in this process');
  const opened: OpenedMedia[] = [];
  const open = async (reference: unknown, what: string) => {
    const file = await media.open(reference, what);
    opened.push(file);
    return file;
  };
  try {
    const output = await open(scoredOutput(spec, item), 'the output');
    switch (spec.type) {
      case 'video_conformance':
        return conformance(spec, item, output);
      case 'video_qa':
        return await qualityChecks(spec, output, media, deps.timeoutMs);
      case 'video_similarity':
        return await similarity(spec, item, output, media, open, deps.timeoutMs);
    }
  } catch (err) {
    // The analyses' own failures are written for users ("ran past its time limit").
    if (err instanceof MediaAnalysisError) throw new ScorerError(err.message);
    throw err;
  } finally {
    await Promise.all(opened.map((file) => file.release().catch(() => undefined)));
  }
}

/** Score: the share of the spec's fields that match (1 when all do); details.mismatches names the others. */
function conformance(spec: ScorerSpecOf<'video_conformance'>, item: ScoreInput, output: OpenedMedia): ScoreOutcome {
  const expected = spec.config.expected ?? specIn(item.expected);
  const result = checkConformance(output.probe, expected);
  if (result.checked.length === 0) throw new ScorerError(`nothing to check: give config.expected or an item expected value with ${CONFORMANCE_FIELDS.join(', ')}`);
  return { score: round(result.score), details: { mismatches: result.mismatches, probe: output.probe } };
}

/** The conformance fields of an item's expected value (its other fields, a reference media say, are not the spec's). */
function specIn(expected: unknown): ConformanceSpec {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return {};
  const spec: Record<string, unknown> = {};
  for (const key of [...CONFORMANCE_FIELDS, 'toleranceMs']) {
    const found = valueAtPath(expected, key);
    if (found.found) spec[key] = found.value;
  }
  return spec as ConformanceSpec;
}

/** Score: 1 − (the time covered by findings, each instant counted once) / the duration. */
async function qualityChecks(spec: ScorerSpecOf<'video_qa'>, output: OpenedMedia, media: MediaAccess, timeoutMs: number): Promise<ScoreOutcome> {
  const { durationMs, width, hasAudio } = output.probe;
  if (!durationMs) throw new ScorerError('the output media has no duration to check');
  const analysis = await analyseVideo(media.ffmpeg(), { path: output.path, durationMs, hasVideo: width !== null, hasAudio }, spec.config.checks, spec.config.thresholds ?? {}, {
    timeoutMs,
  });
  const score = 1 - coveredMs(analysis.findings, durationMs) / durationMs;
  return { score: round(score), details: { durationMs, ...boundedFindings(analysis.findings), measures: analysis.measures } };
}

function boundedFindings(findings: QaFinding[]): { findings: QaFinding[]; findingsOmitted?: number } {
  if (findings.length <= MAX_FINDINGS) return { findings };
  return { findings: findings.slice(0, MAX_FINDINGS), findingsOmitted: findings.length - MAX_FINDINGS };
}

/** Score: SSIM as it is, PSNR / 50 dB capped at 1, or the share of frames whose signatures match. */
async function similarity(
  spec: ScorerSpecOf<'video_similarity'>,
  item: ScoreInput,
  output: OpenedMedia,
  media: MediaAccess,
  open: (reference: unknown, what: string) => Promise<OpenedMedia>,
  timeoutMs: number,
): Promise<ScoreOutcome> {
  const from = spec.config.reference ?? 'expected';
  const referenceValue = from === 'expected' ? expectedMedia(spec, item) : outputField(spec, await media.outputInRun(from.runId), from.runId);
  const reference = await open(referenceValue, from === 'expected' ? 'the expected media' : `the output of run ${from.runId}`);
  const result = await compareVideo(media.ffmpeg(), { path: output.path, ...output.probe }, { path: reference.path, ...reference.probe }, spec.config.method, { timeoutMs });
  return { score: round(result.score), details: { method: result.method, value: result.value, frames: result.frames, reference: from } };
}

function expectedMedia(spec: VideoSpec, item: ScoreInput): unknown {
  const expected = scoredExpected(spec, item);
  if (expected === undefined || expected === null) throw new ScorerError('the item has no expected media to compare with');
  return expected;
}

/** The other run's output, where `config.field` points in it as in this one. */
function outputField(spec: VideoSpec, otherOutput: unknown, runId: string): unknown {
  const field = spec.config.field;
  if (!field) return otherOutput;
  const found = valueAtPath(otherOutput, field);
  if (!found.found) throw new ScorerError(`the output of run ${runId} has no field '${field}'`);
  return found.value;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
