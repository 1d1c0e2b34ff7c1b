import {
  DomainError,
  ErrorCode,
  FieldChange,
  LATEST_RELEASE,
  ProjectContext,
  PROMPT_RELEASE_NAME_PATTERN,
  PROMPT_RELEASES_MAX,
  PromptReleaseListView,
  PromptReleaseMoveRequest,
  PromptReleaseRemoveRequest,
  PromptReleaseView,
  MoveReleaseInput,
} from '@cinetrace/contracts';
import { inTransaction, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { insertPromptActivity } from '../store/prompt-activity.queries';
import { PromptRelease, StoredGate } from '../store/prompt-release.entity';
import { countReleases, deleteRelease, findRelease, insertRelease, listReleases, replaceRelease } from '../store/prompt-releases.queries';
import { promptVersionExists } from '../store/prompt-versions.queries';
import { lockLivePrompt, promptExists } from '../store/prompts.queries';
import { canonical } from '../prompts/prompt-changes';
import { activity, findLive } from '../prompts/prompts.service';
import { GateEvidenceReader } from './gate-evidence';
import { gateFailed, judgeGate } from './gate-verdict';

/** Concurrent moves of one release: the loser of the compare-and-set re-reads and moves from where the winner left it. */
const MOVE_ATTEMPTS = 10;

class LostReleaseRace extends Error {}

/** Releases of a prompt: list, move (through its gate), remove; every change is in the prompt's activity. */
@Injectable()
export class ReleasesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly evidence: GateEvidenceReader,
  ) {}

  async list(ctx: ProjectContext, id: string): Promise<PromptReleaseListView> {
    if (!(await promptExists(this.dataSource.manager, ctx.projectId, id))) throw notFound(id);
    const releases = await listReleases(this.dataSource.manager, id);
    return { data: releases.map(toReleaseView), nextCursor: null };
  }

  async move(request: PromptReleaseMoveRequest): Promise<PromptReleaseView> {
    checkName(request.name);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.moveOnce(request);
      } catch (err) {
        const lost = err instanceof LostReleaseRace || isUniqueViolation(err);
        if (!lost || attempt >= MOVE_ATTEMPTS) throw err;
      }
    }
  }

  async remove(request: PromptReleaseRemoveRequest): Promise<void> {
    const { ctx, id, name } = request;
    checkName(name);
    await inTransaction(this.dataSource, async (tx) => {
      const prompt = await findLive(tx, ctx, id);
      const release = await findRelease(tx, id, name);
      if (!release) throw DomainError.notFound(`The prompt with id '${id}' has no release '${name}'`);
      if (release.gate && !request.mayChangeGate) throw gateNeedsAdmin(name);
      if (!(await deleteRelease(tx, id, name, release.revision))) throw new DomainError(ErrorCode.Conflict, `Release '${name}' changed while it was being removed; try again`);
      const changes: Record<string, FieldChange> = { [name]: { from: release.version, to: null } };
      if (release.gate) changes[`${name}.gate`] = { from: release.gate, to: null };
      await insertPromptActivity(tx, activity(ctx, id, 'released', prompt.version, Date.now(), changes));
    });
  }

  private async moveOnce({ ctx, id, name, input, mayChangeGate }: PromptReleaseMoveRequest): Promise<PromptReleaseView> {
    const manager = this.dataSource.manager;
    const prompt = await findLive(manager, ctx, id);
    if (!(await promptVersionExists(manager, id, input.version))) {
      throw DomainError.validation([{ path: 'version', message: `the prompt has no version ${input.version} (its newest is ${prompt.version})` }]);
    }
    const current = await findRelease(manager, id, name);
    let gate = askedGate(input.gate, current?.gate ?? null);
    // The same gate sent again (keys in any order, its dataset version left out) is no change, and needs no admin.
    const gateChanged = canonical(gate) !== canonical(current?.gate ?? null);
    if (gateChanged && !mayChangeGate) throw gateNeedsAdmin(name);
    const moved = current?.version !== input.version;
    if (!moved && !gateChanged) return toReleaseView(current!);

    // A gated release only ever moves to a version that passed; a gate set where the release
    // stands judges its next move, not the version it points at. Read before the transaction;
    // the compare-and-set below catches a move in between.
    if (gate) gate = await this.checkGate(ctx, id, name, input.version, gate, { isNew: gateChanged, judge: moved });

    return inTransaction(this.dataSource, async (tx) => {
      // The prompt's row first, as a delete takes it: a delete racing this move sees its gate, or this move sees the delete.
      if (!(await lockLivePrompt(tx, ctx.projectId, id))) throw notFound(id);
      const now = Date.now();
      const next: PromptRelease = {
        promptId: id,
        name,
        version: input.version,
        gate,
        revision: (current?.revision ?? 0) + 1,
        updatedAt: now,
        updatedBy: ctx.apiKeyId,
      };
      if (current) await compareAndSet(tx, current, next);
      else await insertNew(tx, next);
      const changes: Record<string, FieldChange> = {};
      if (moved) changes[name] = { from: current?.version ?? null, to: input.version };
      if (gateChanged) changes[`${name}.gate`] = { from: current?.gate ?? null, to: gate };
      await insertPromptActivity(tx, activity(ctx, id, 'released', prompt.version, now, changes));
      return toReleaseView(next);
    });
  }

  /**
   * A gate being set must name a benchmark of the project, only its scorers and a version its
   * dataset has had (400 otherwise, naming the field); a version the release moves to must have
   * passed it (409 gate_failed). A gate set earlier whose benchmark has gone can no longer be
   * passed. Answers the gate to store: a new one counts the dataset's version now unless it named one.
   */
  private async checkGate(
    ctx: ProjectContext,
    id: string,
    name: string,
    version: number,
    gate: StoredGate,
    { isNew: gateIsNew, judge }: { isNew: boolean; judge: boolean },
  ): Promise<StoredGate> {
    const evidence = await this.evidence.ofPrompt(ctx, gate.benchmarkId, id, version, gate.datasetVersion ?? undefined);
    if (!evidence) {
      const message = `is not a benchmark of this project`;
      if (gateIsNew) throw DomainError.validation([{ path: 'gate.benchmarkId', message }], 'The gate is not valid');
      throw new DomainError(ErrorCode.GateFailed, `Release '${name}' is gated by benchmark '${gate.benchmarkId}', which no longer exists; an admin key can remove the gate`);
    }
    if (gateIsNew) {
      const unknown = Object.keys(gate.thresholds).filter((scorer) => !evidence.scorers.includes(scorer));
      if (unknown.length) {
        const message = `is not a scorer of the benchmark (its scorers: ${evidence.scorers.join(', ')})`;
        throw DomainError.validation(
          unknown.map((scorer) => ({ path: `gate.thresholds.${scorer}`, message })),
          'The gate is not valid',
        );
      }
    }
    if (!evidence.dataset) {
      const message = 'is a benchmark whose dataset no longer exists';
      if (gateIsNew) throw DomainError.validation([{ path: 'gate.benchmarkId', message }], 'The gate is not valid');
      throw new DomainError(
        ErrorCode.GateFailed,
        `Release '${name}' is gated by benchmark '${gate.benchmarkId}', whose dataset no longer exists; an admin key can remove the gate`,
      );
    }
    if (gateIsNew && gate.datasetVersion != null && gate.datasetVersion > evidence.dataset.version) {
      const message = `is past the version of the benchmark's dataset (${evidence.dataset.version})`;
      throw DomainError.validation([{ path: 'gate.datasetVersion', message }], 'The gate is not valid');
    }
    // A gate from before gates named a dataset version counts the dataset's version now (it is stored as it was).
    const datasetVersion = gate.datasetVersion ?? evidence.dataset.version;
    if (judge) {
      const verdict = judgeGate(gate.thresholds, datasetVersion, evidence.runs, evidence.uncounted ?? null);
      if (!verdict.passed) throw gateFailed(name, version, gate, datasetVersion, verdict);
    }
    return gateIsNew ? { ...gate, datasetVersion } : gate;
  }
}

async function compareAndSet(tx: EntityManager, current: PromptRelease, next: PromptRelease): Promise<void> {
  if (!(await replaceRelease(tx, current, next))) throw new LostReleaseRace();
}

async function insertNew(tx: EntityManager, release: PromptRelease): Promise<void> {
  const count = await countReleases(tx, release.promptId);
  if (count >= PROMPT_RELEASES_MAX) throw new DomainError(ErrorCode.Conflict, `A prompt has at most ${PROMPT_RELEASES_MAX} releases; remove one first`);
  // A concurrent first move of the same name loses on the primary key and is retried as a move.
  await insertRelease(tx, release);
}

function checkName(name: string): void {
  if (name === LATEST_RELEASE) {
    throw DomainError.validation([{ path: 'name', message: `'${LATEST_RELEASE}' is always the newest version; it cannot be set or removed` }]);
  }
  if (!PROMPT_RELEASE_NAME_PATTERN.test(name)) {
    throw DomainError.validation([{ path: 'name', message: 'must be 1..50 of a-z, 0-9, "_", "." and "-"' }]);
  }
}

const gateNeedsAdmin = (name: string) =>
  new DomainError(ErrorCode.InsufficientScope, `Setting, changing or removing the gate of release '${name}' needs an API key with the 'admin' scope`);

const notFound = (id: string) => DomainError.notFound(`No prompt with id '${id}' in this project`);

/**
 * The gate a move asks for: the stored one when the body has none; none for `null`; else the
 * body's, which is the stored one when it names the same benchmark and thresholds and no
 * dataset version (so re-sending a gate changes nothing); `datasetVersion` left undefined is
 * resolved when the gate is checked.
 */
function askedGate(input: MoveReleaseInput['gate'], current: StoredGate | null): StoredGate | null {
  if (input === undefined) return current;
  if (input === null) return null;
  const sameRule = current !== null && current.benchmarkId === input.benchmarkId && canonical(current.thresholds) === canonical(input.thresholds);
  if (sameRule && input.datasetVersion === undefined) return current;
  return { benchmarkId: input.benchmarkId, thresholds: input.thresholds, ...(input.datasetVersion !== undefined ? { datasetVersion: input.datasetVersion } : {}) };
}

export function toReleaseView(r: PromptRelease): PromptReleaseView {
  const gate = r.gate && { benchmarkId: r.gate.benchmarkId, thresholds: r.gate.thresholds, datasetVersion: r.gate.datasetVersion ?? null };
  return { name: r.name, version: r.version, gate, updatedAt: toIso(r.updatedAt), updatedBy: { type: 'api_key', id: r.updatedBy } };
}
