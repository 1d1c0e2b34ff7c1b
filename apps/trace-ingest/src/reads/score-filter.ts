import { DomainError, type FieldError, type TraceListFilters } from '@cinetrace/contracts';

/**
 * The trace list's score filter, checked: `scoreName` with `scoreMin` and/or `scoreMax`
 * (inclusive), or with `scoreValue` (a category), never both kinds; bounds and a value only
 * with a name. `scoreName` alone keeps the traces that have a score of that name.
 */
export function checkScoreFilter(filters: Omit<TraceListFilters, 'projectId'>): void {
  const { scoreName, scoreMin, scoreMax, scoreValue } = filters;
  const errors: FieldError[] = [];
  const bounded = scoreMin !== undefined || scoreMax !== undefined;
  if (scoreName === undefined) {
    for (const [path, given] of [
      ['scoreMin', scoreMin],
      ['scoreMax', scoreMax],
      ['scoreValue', scoreValue],
    ] as const) {
      if (given !== undefined) errors.push({ path, message: 'needs scoreName: the score it bounds' });
    }
  } else if (scoreName.length < 1 || scoreName.length > 100) {
    errors.push({ path: 'scoreName', message: 'must be a score name of 1..100 characters' });
  }
  if (bounded && scoreValue !== undefined) errors.push({ path: 'scoreValue', message: 'cannot be given with scoreMin or scoreMax' });
  if (scoreMin !== undefined && scoreMax !== undefined && scoreMin > scoreMax) errors.push({ path: 'scoreMax', message: 'must not be less than scoreMin' });
  if (errors.length) throw DomainError.validation(errors);
}
