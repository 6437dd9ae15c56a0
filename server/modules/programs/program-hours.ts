// A program's hours (decision 040), one figure whichever place sets them: the checks the program and its policy share.
import { programHoursProblem } from '../../../common/programs.ts';
import { badRequest } from '../../lib/errors.ts';

export const num = (v: string | null) => (v == null ? null : Number(v));

/**
 * Hours someone enters for a program, as durationHours or as its policy's programHours (one figure,
 * decision 040): the rule of common/programs.ts, a 400 naming the field. The stored value is kept as it is.
 */
export function assertProgramHours(value: number | null, current: number | null, field: 'durationHours' | 'programHours'): void {
  const problem = programHoursProblem(value, current, field === 'durationHours' ? 'Duration hours' : 'programHours');
  if (problem) throw badRequest(problem, [{ field, message: problem }]);
}

/** SAP checkpoints the policy set must stay within the program's hours, whichever place changes them. */
export function assertCheckpointsWithin(checkpoints: readonly number[] | null | undefined, hours: number, field: 'durationHours' | 'sapCheckpointHours'): void {
  const beyond = checkpoints?.find((h) => h > hours);
  if (beyond === undefined) return;
  const message =
    field === 'sapCheckpointHours'
      ? `sapCheckpointHours must not go beyond the program's ${hours} hours (${beyond} does)`
      : `Duration hours must not be below the clock-hour policy's SAP checkpoint at ${beyond} hours; change the checkpoints first`;
  throw badRequest(message, [{ field, message }]);
}
