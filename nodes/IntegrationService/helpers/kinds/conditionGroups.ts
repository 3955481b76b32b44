import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import type { Reading } from '../validation';
import { inputError, MAX_ENTRIES, readEntries, withoutValue } from '../validation';
import type { Fields, Kind } from './kind';
import { compoundValue } from './kind';
import { toWholeNumber } from './number';
import { entryWord, objectListProperty, partsInWords, readEntry } from './objectList';

/** A smart list's conditions, `{fld, opr, num, unit, val}[][]`: the form's entries of one Group make one list. */
const GROUP_PART: INodeProperties = {
	displayName: 'Group',
	name: 'group',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 1,
	description:
		'Conditions with the same group number form one group; groups are sent in the order of their numbers',
};

/** The service requires every key: an unset `num` is sent as null, an unset `unit` as "". */
const FILLED: IDataObject = { num: null, unit: '' };

const MAX_GROUPS = 100;

const CONDITIONS = { list: 'conditions', entry: 'must be an object' };

/** One condition: `val` may be a list (checked here), the other parts read by their kinds. */
function condition(place: Reading, entry: IDataObject, spec: FieldSpec, fields: Fields) {
	const parts = spec.items ?? [];
	const { val, ...rest } = entry;
	if (!Array.isArray(val)) return { ...FILLED, ...readEntry(place, entry, parts, fields) };
	if (!val.every((one) => typeof one === 'string' || Number.isFinite(one))) {
		const problem = 'must be text or a list of numbers or texts';
		throw inputError(place.ctx, place.itemIndex, `${place.label} › val`, problem);
	}
	const others = parts.filter((part) => part.name !== 'val');
	const read = readEntry(place, rest, others, fields);
	return { ...FILLED, ...read, val: val as IDataObject[keyof IDataObject] };
}

function fromForm(at: Reading, raw: unknown, spec: FieldSpec, fields: Fields) {
	const groups = new Map<number, IDataObject[]>();
	readEntries(at, raw, CONDITIONS, (place, { group, ...rest }) => {
		const label = `${place.label} › Group`;
		const groupValue = group ?? 1;
		const number = withoutValue(at, groupValue, () =>
			toWholeNumber(at.ctx, at.itemIndex, label, groupValue, 1, MAX_GROUPS),
		);
		groups.set(number, [...(groups.get(number) ?? []), condition(place, rest, spec, fields)]);
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
	const total = raw.filter(Array.isArray).flat().length;
	if (total > MAX_ENTRIES) {
		const problem = `has ${total} entries; at most ${MAX_ENTRIES} are sent in one request`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	return raw.map((group, g) => {
		if (!Array.isArray(group) || group.length === 0)
			throw inputError(ctx, itemIndex, field, `group ${g + 1} must be a list of conditions`);
		const groupAt = { ...at, label: `${field} › group ${g + 1}` };
		return readEntries(groupAt, group, CONDITIONS, (place, entry) =>
			condition(place, entry, spec, fields),
		);
	});
}

export const conditionGroups: Kind = {
	property: (spec, fields) =>
		objectListProperty(spec, [GROUP_PART, ...(spec.items ?? []).map(fields.part)]),
	read: (at, spec, raw, fields) =>
		compoundValue(at, spec, raw, entryWord(spec), (given) =>
			Array.isArray(given) ? fromLists(at, given, spec, fields) : fromForm(at, given, spec, fields),
		),
	words: (spec, fields) =>
		`list of groups, each a list of objects with ${partsInWords(spec.items ?? [], fields)}`,
	list: true,
};
