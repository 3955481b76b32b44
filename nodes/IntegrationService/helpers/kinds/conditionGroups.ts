import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import { inputError, MAX_ENTRIES, toEntries, withoutValue } from '../validation';
import type { Fields, Kind, Reading } from './kind';
import { compoundValue } from './kind';
import { toWholeNumber } from './number';
import { entryWord, objectListProperty, partsInWords, readEntry } from './objectList';

/**
 * A smart list's conditions, `{fld, opr, num, unit, val}[][]`: in the form, entries with the same
 * Group number make one inner list. The service requires every key, so an unset `num` is sent as null
 * and an unset `unit` as "".
 */
const GROUP_PART: INodeProperties = {
	displayName: 'Group',
	name: 'group',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 1,
	description:
		'Conditions with the same group number form one group; groups are sent in the order of their numbers',
};

const FILLED: IDataObject = { num: null, unit: '' };

const MAX_GROUPS = 100;

const CONDITIONS = { list: 'conditions', entry: 'must be an object' };

type Place = { field: string; number: number; label: string };

/** One condition: `val` may be a list (checked here), the other parts read by their kinds. */
function condition(at: Reading, place: Place, entry: IDataObject, spec: FieldSpec, fields: Fields) {
	const parts = spec.items ?? [];
	const { val, ...rest } = entry;
	if (!Array.isArray(val)) return { ...FILLED, ...readEntry(at, place, entry, parts, fields) };
	if (!val.every((one) => typeof one === 'string' || Number.isFinite(one))) {
		const label = `${place.label} › val`;
		throw inputError(at.ctx, at.itemIndex, label, 'must be text or a list of numbers or texts');
	}
	const others = parts.filter((part) => part.name !== 'val');
	const read = readEntry(at, place, rest, others, fields);
	return { ...FILLED, ...read, val: val as IDataObject[keyof IDataObject] };
}

function fromForm(at: Reading, raw: unknown, spec: FieldSpec, fields: Fields) {
	const { ctx, itemIndex, label: field } = at;
	const groups = new Map<number, IDataObject[]>();
	toEntries(ctx, itemIndex, field, raw, CONDITIONS).forEach((entry, position) => {
		const place = { field, number: position + 1, label: `${field} › entry ${position + 1}` };
		const { group, ...rest } = entry;
		const label = `${place.label} › Group`;
		const groupValue = group ?? 1;
		const number = withoutValue(ctx, itemIndex, groupValue, () =>
			toWholeNumber(ctx, itemIndex, label, groupValue, 1, MAX_GROUPS),
		);
		const one = condition(at, place, rest, spec, fields);
		groups.set(number, [...(groups.get(number) ?? []), one]);
	});
	return [...groups.keys()].sort((a, b) => a - b).map((key) => groups.get(key) ?? []);
}

function fromLists(at: Reading, raw: unknown[], spec: FieldSpec, fields: Fields) {
	const { ctx, itemIndex, label: field } = at;
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
		if (!Array.isArray(group) || group.length === 0)
			throw inputError(ctx, itemIndex, field, `group ${g + 1} must be a list of conditions`);
		return toEntries(ctx, itemIndex, groupLabel, group, CONDITIONS).map((entry, position) => {
			const label = `${groupLabel} › entry ${position + 1}`;
			const place = { field: groupLabel, number: position + 1, label };
			return condition(at, place, entry, spec, fields);
		});
	});
}

export const conditionGroups: Kind = {
	property: (spec, fields) =>
		objectListProperty(spec, [GROUP_PART, ...(spec.items ?? []).map(fields.part)]),
	read: (at, spec, raw, fields) =>
		compoundValue(
			at,
			spec,
			raw,
			entryWord(spec),
			(given) =>
				(Array.isArray(given)
					? fromLists(at, given, spec, fields)
					: fromForm(at, given, spec, fields)) as unknown as IDataObject[],
		),
	words: (spec, fields) =>
		`list of groups, each a list of objects with ${partsInWords(spec.items ?? [], fields)}`,
	list: true,
};
