import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toWholeNumber } from '../numbers';
import { inputError, MAX_ENTRIES, toEntries, withoutValue } from '../validation';
import { entryParts, readEntry, type EntryRead, type PartReader } from './objectList';

/**
 * A list of lists of objects (a smart list's conditions, `{fld, opr, num, unit, val}[][]`). The form is
 * one `values` collection whose entries carry a Group number: entries with the same number make one
 * inner list, the lists in the order of their numbers. An input item or one JSON value gives the list
 * of lists itself. The service requires every key of a condition: an unset `num` is sent as null and
 * an unset `unit` as "", and `val` may be a list of numbers or texts (given as JSON).
 */

/** The Group part the form adds to each entry. */
export const GROUP_PART: INodeProperties = {
	displayName: 'Group',
	name: 'group',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 1,
	description:
		'Conditions with the same group number form one group; groups are sent in the order of their numbers',
};

const FILLED: IDataObject = { num: null, unit: '' };

/** At most this many groups, as at most this many entries in one list (validation.ts). */
const MAX_GROUPS = 100;

type Parts = EntryRead['parts'];

/** One condition: `val` may be a list (checked here), the other parts read as their fields. */
function condition(entry: IDataObject, at: EntryRead): IDataObject {
	const { val, ...rest } = entry;
	if (!Array.isArray(val)) return { ...FILLED, ...readEntry(entry, at) };
	if (!val.every((one) => typeof one === 'string' || Number.isFinite(one))) {
		const label = `${at.place.label} › val`;
		throw inputError(at.ctx, at.itemIndex, label, 'must be text or a list of numbers or texts');
	}
	const list = at.parts.list.filter((part) => part.name !== 'val');
	const read = readEntry(rest, { ...at, parts: { list, read: at.parts.read } });
	return { ...FILLED, ...read, val: val as IDataObject[keyof IDataObject] };
}

const CONDITIONS = { list: 'conditions', entry: 'must be an object' };

/** The form: entries with a Group number, grouped, the groups in the order of their numbers. */
function fromForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
	parts: Parts,
) {
	const groups = new Map<number, IDataObject[]>();
	toEntries(ctx, itemIndex, field, raw, CONDITIONS).forEach((entry, position) => {
		const place = { field, number: position + 1, label: `${field} › entry ${position + 1}` };
		const { group, ...rest } = entry;
		const label = `${place.label} › Group`;
		const groupValue = group ?? 1;
		// A part of an entry: its error names the kind of value, never the value (validation.ts).
		const number = withoutValue(ctx, itemIndex, groupValue, () =>
			toWholeNumber(ctx, itemIndex, label, groupValue, 1, MAX_GROUPS),
		);
		const one = condition(rest, { ctx, itemIndex, place, parts });
		groups.set(number, [...(groups.get(number) ?? []), one]);
	});
	return [...groups.keys()].sort((a, b) => a - b).map((key) => groups.get(key) ?? []);
}

/** A list of groups (an input item, one JSON value), each a non-empty list of conditions. */
function fromLists(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown[],
	parts: Parts,
) {
	if (raw.length > MAX_GROUPS) {
		const problem = `has ${raw.length} groups; at most ${MAX_GROUPS} are sent`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	// The bound counts every condition, as the form's one list does, not each group's alone.
	const total = raw.reduce<number>(
		(sum, group) => sum + (Array.isArray(group) ? group.length : 0),
		0,
	);
	if (total > MAX_ENTRIES) {
		const problem = `has ${total} entries; at most ${MAX_ENTRIES} are sent in one request`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	return raw.map((group, g) => {
		const groupLabel = `${field} › group ${g + 1}`;
		if (!Array.isArray(group) || group.length === 0) {
			throw inputError(ctx, itemIndex, field, `group ${g + 1} must be a list of conditions`);
		}
		return toEntries(ctx, itemIndex, groupLabel, group, CONDITIONS).map((entry, position) => {
			const place = {
				field: groupLabel,
				number: position + 1,
				label: `${groupLabel} › entry ${position + 1}`,
			};
			return condition(entry, { ctx, itemIndex, place, parts });
		});
	});
}

/**
 * The parts of one condition of a condition-groups field (its entries without the form's Group, which
 * only sorts them into groups), or undefined for any other field: what the reader reads, and what a
 * record's description names (recordShape.ts).
 */
export function conditionParts(property: INodeProperties): INodeProperties[] | undefined {
	const parts = entryParts(property);
	if (!parts.some((part) => part.name === GROUP_PART.name)) return undefined;
	return parts.filter((part) => part.name !== GROUP_PART.name);
}

/** The reader of a condition-groups field; `read` reads one part as its field. */
export function conditionGroupsReader(property: INodeProperties, read: PartReader) {
	const list = conditionParts(property) ?? [];
	const parts = { list, read };
	return (ctx: IExecuteFunctions, itemIndex: number, field: string, raw: unknown): IDataObject[] =>
		(Array.isArray(raw)
			? fromLists(ctx, itemIndex, field, raw, parts)
			: fromForm(ctx, itemIndex, field, raw, parts)) as unknown as IDataObject[];
}
