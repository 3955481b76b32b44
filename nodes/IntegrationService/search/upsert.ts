/**
 * Create or Update's decision, pure: which person a row is, from the people its match keys found, in
 * the order the user chose (by email, then by phone, by default). Never one picked silently.
 */
import type { MatchKind, PersonId } from './matchKeys';

/** What one kind of key found: the row's keys of that kind and the people they match. */
export interface MatchStep {
	kind: MatchKind;
	keys: readonly string[];
	ids: readonly PersonId[];
}

export type UpsertDecision =
	| { action: 'create' }
	| { action: 'update'; id: PersonId; by: MatchKind }
	| { action: 'ambiguous'; ids: readonly PersonId[]; by: MatchKind }
	/** The row has no key of any kind asked for: nothing to match on, so nothing is sent. */
	| { action: 'noKeys' };

/**
 * The first kind, in order, whose keys found anyone decides: one person is updated, several are an
 * error naming them. A later kind is a fallback only (a phone is not asked when the email matched),
 * so one person found by email and another by phone is an update of the one found by email.
 */
export function decideUpsert(steps: readonly MatchStep[]): UpsertDecision {
	if (steps.every((step) => step.keys.length === 0)) return { action: 'noKeys' };
	for (const { kind, ids } of steps) {
		if (ids.length === 1) return { action: 'update', id: ids[0], by: kind };
		if (ids.length > 1) return { action: 'ambiguous', ids, by: kind };
	}
	return { action: 'create' };
}

/** The most IDs an ambiguity names (a key thousands share, such as a placeholder email, says how many). */
const NAMED_IDS = 10;

/** The ambiguity as said to a user and to a model: the candidates, plainly, and what to do. */
export function ambiguityMessage(decision: { ids: readonly PersonId[]; by: MatchKind }): string {
	const { ids, by } = decision;
	const named = ids.slice(0, NAMED_IDS).map((id) => String(id));
	const more = ids.length > NAMED_IDS ? ` and ${ids.length - NAMED_IDS} more` : '';
	return `${ids.length} people match this ${by} (IDs ${named.join(', ')}${more}), so none was updated and nothing was sent: update one of them by its ID, or make the ${by} unique`;
}
