import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, toEntries, toWholeNumber } from '../validation';
import { entryParts, readEntry, type PartReader } from './objectList';

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

function condition(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entry: IDataObject,
	place: { field: string; number: number; label: string },
	parts: { list: INodeProperties[]; read: PartReader },
): IDataObject {
	const { val, ...rest } = entry;
	const list = Array.isArray(val);
	if (list && !val.every((one) => typeof one === 'string' || Number.isFinite(one))) {
		throw inputError(
			ctx,
			itemIndex,
			`${place.label} › val`,
			'must be text or a list of numbers or texts',
		);
	}
	// A list in `val` is checked above; the other parts are read as their fields.
	const own = list
		? { list: parts.list.filter((part) => part.name !== 'val'), read: parts.read }
		: parts;
	const filled = { ...FILLED, ...readEntry(ctx, itemIndex, list ? rest : entry, place, own) };
	if (list) filled.val = val as IDataObject[keyof IDataObject];
	return filled;
}

/** The reader of a condition-groups field; `read` reads one part as its field. */
export function conditionGroupsReader(property: INodeProperties, read: PartReader) {
	const all = entryParts(property);
	const parts = { list: all.filter((part) => part.name !== GROUP_PART.name), read };
	return (
		ctx: IExecuteFunctions,
		itemIndex: number,
		field: string,
		raw: unknown,
	): IDataObject[] => {
		const wording = { list: 'condition groups', entry: 'must be a list of conditions' };
		if (!Array.isArray(raw)) {
			// The form: entries with a Group number.
			const groups = new Map<number, IDataObject[]>();
			toEntries(ctx, itemIndex, field, raw, {
				list: 'conditions',
				entry: 'must be an object',
			}).forEach((entry, position) => {
				const label = `${field} › entry ${position + 1}`;
				const { group, ...rest } = entry;
				const number = toWholeNumber(ctx, itemIndex, `${label} › Group`, group ?? 1, 1, MAX_GROUPS);
				const place = { field, number: position + 1, label };
				groups.set(number, [
					...(groups.get(number) ?? []),
					condition(ctx, itemIndex, rest, place, parts),
				]);
			});
			return [...groups.keys()]
				.sort((a, b) => a - b)
				.map((key) => groups.get(key) ?? []) as unknown as IDataObject[];
		}
		if (raw.length > MAX_GROUPS)
			throw inputError(
				ctx,
				itemIndex,
				field,
				`has ${raw.length} groups; at most ${MAX_GROUPS} are sent`,
			);
		return raw.map((group, g) => {
			const groupLabel = `${field} › group ${g + 1}`;
			if (!Array.isArray(group) || group.length === 0)
				throw inputError(ctx, itemIndex, field, `group ${g + 1} ${wording.entry}`);
			return toEntries(ctx, itemIndex, groupLabel, group, {
				list: 'conditions',
				entry: 'must be an object',
			}).map((entry, position) =>
				condition(
					ctx,
					itemIndex,
					entry,
					{
						field: groupLabel,
						number: position + 1,
						label: `${groupLabel} › entry ${position + 1}`,
					},
					parts,
				),
			);
		}) as unknown as IDataObject[];
	};
}
