/** Create or Update's decision: which person a row is, never one picked silently. */
import type { MatchKind, PersonId } from './matchKeys';

export interface MatchStep {
	kind: MatchKind;
	keys: readonly string[];
	ids: readonly PersonId[];
}

export type UpsertDecision =
	| { action: 'create' }
	| { action: 'update'; id: PersonId; by: MatchKind }
	| { action: 'ambiguous'; ids: readonly PersonId[]; by: MatchKind }
	| { action: 'noKeys' };

/** The first kind, in order, whose keys found anyone decides; a later kind is a fallback only. */
export function decideUpsert(steps: readonly MatchStep[]): UpsertDecision {
	if (steps.every((step) => step.keys.length === 0)) return { action: 'noKeys' };
	for (const { kind, ids } of steps) {
		if (ids.length === 1) return { action: 'update', id: ids[0], by: kind };
		if (ids.length > 1) return { action: 'ambiguous', ids, by: kind };
	}
	return { action: 'create' };
}

const NAMED_IDS = 10;

export function ambiguityMessage(decision: { ids: readonly PersonId[]; by: MatchKind }): string {
	const { ids, by } = decision;
	const named = ids.slice(0, NAMED_IDS).map((id) => String(id));
	const more = ids.length > NAMED_IDS ? ` and ${ids.length - NAMED_IDS} more` : '';
	return `${ids.length} people match this ${by} (IDs ${named.join(', ')}${more}), so none was updated and nothing was sent: update one of them by its ID, or make the ${by} unique`;
}
