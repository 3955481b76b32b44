import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jsonOf } from '../../../shared/service';
import { inputError } from '../validation';

/**
 * A list field's companion "<Label> (JSON)": the whole list as one value, for an expression that
 * yields it (`{{ $json.recipients }}`, a model's `$fromAI`) or typed JSON. n8n drops an expression set
 * on a whole repeatable collection inside Additional Fields, so the list gets a field that takes one
 * (decisions.md, "A list of objects as one value"). An empty value (blank, null, []) is not set.
 */

const SUFFIX = 'Json';

export function companionProperty(list: INodeProperties): INodeProperties {
	return {
		displayName: `${list.displayName} (JSON)`,
		name: `${list.name}${SUFFIX}`,
		type: 'json',
		default: '',
		description: `${list.displayName} given whole as one JSON list, e.g. by an expression that yields the input item's ${list.name} list; checked as the entries of ${list.displayName} are. Use either this or ${list.displayName}; an empty value is not set.`,
	};
}

/** Whether the property is a list's companion (never a wire field of its own). */
export function isCompanion(property: INodeProperties): boolean {
	return (
		property.type === 'json' &&
		property.displayName.endsWith(' (JSON)') &&
		property.name.endsWith(SUFFIX)
	);
}

/** Each scope's companions by the name of their list, worked out once rather than for every item. */
const companionsOf = new WeakMap<readonly INodeProperties[], Map<string, INodeProperties>>();

/** The companion of a field among the properties of the same scope, if it has one. */
export function companionOf(
	field: INodeProperties,
	scope: readonly INodeProperties[],
): INodeProperties | undefined {
	let companions = companionsOf.get(scope);
	if (!companions) {
		companions = new Map(
			scope
				.filter(isCompanion)
				.map((property) => [property.name.slice(0, -SUFFIX.length), property]),
		);
		companionsOf.set(scope, companions);
	}
	return companions.get(field.name);
}

const isEmptyValue = (value: unknown) =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && value.trim() === '') ||
	(Array.isArray(value) && value.length === 0);

/** Whether a list field's own entries are empty (not added, or an empty collection). */
export function noEntries(raw: unknown): boolean {
	if (isEmptyValue(raw)) return true;
	if (typeof raw !== 'object' || Array.isArray(raw)) return false;
	const keys = Object.keys(raw as object);
	return (
		keys.length === 0 || (keys.length === 1 && isEmptyValue((raw as { values?: unknown }).values))
	);
}

/**
 * The companion's value, parsed: undefined when empty (not set), else the list for the field's reader.
 * Set together with the field's own entries it is an error: which one was meant is not guessed.
 */
export function wholeValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	labels: { field: string; companion: string },
	raw: unknown,
	entries: unknown,
): unknown {
	let value = raw;
	if (typeof value === 'string' && value.trim() !== '') {
		const read = jsonOf(value);
		if ('problem' in read) throw inputError(ctx, itemIndex, labels.companion, read.problem);
		value = read.value;
	}
	if (isEmptyValue(value)) return undefined;
	if (!noEntries(entries)) {
		throw inputError(
			ctx,
			itemIndex,
			labels.companion,
			`give either ${labels.field} or ${labels.companion}, not both`,
		);
	}
	return value;
}
