/**
 * Get Many's Filters, checked on each record as pages arrive (the service filters nothing). Answers
 * vary by connected system: text compares in any case, "42" equals 42, 1 and 0 are booleans.
 */
import type { IDataObject } from 'n8n-workflow';

export const FILTER_OPERATORS = [
	'contains',
	'equals',
	'isEmpty',
	'isNotEmpty',
	'onOrAfter',
	'onOrBefore',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCondition {
	/** A field of the record; dots reach inside (`addresses.city`), a list's entries each count. */
	field: string;
	operator: FilterOperator;
	value: string;
}

type Leaf = string | number | boolean;

/** The field's values: every entry of a list, a contact value's `value`; `created` reads `createdAt` when absent. */
export function fieldValues(record: IDataObject, field: string): Leaf[] {
	let values: unknown[] = [record];
	field.split('.').forEach((name, depth) => {
		values = values.flatMap((value) => {
			if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
			const object = value as IDataObject;
			const alias = depth === 0 ? /^(created|updated)(At)?$/.exec(name) : null;
			const found =
				object[name] ?? (alias ? object[alias[2] ? alias[1] : `${alias[1]}At`] : undefined);
			return Array.isArray(found) ? found : [found];
		});
	});
	return values.flatMap((value) => {
		if (Array.isArray(value)) return [];
		if (value !== null && typeof value === 'object') return leafOf((value as IDataObject).value);
		return leafOf(value);
	});
}

function leafOf(value: unknown): Leaf[] {
	if (typeof value === 'number') return Number.isFinite(value) ? [value] : [];
	if (typeof value === 'boolean') return [value];
	return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

const TRUE = ['true', '1'];
const FALSE = ['false', '0'];

function text(value: Leaf): string {
	return String(value).trim().toLowerCase();
}

function truthOf(written: string): boolean | undefined {
	return TRUE.includes(written) ? true : FALSE.includes(written) ? false : undefined;
}

/**
 * Equal as booleans when either side is one (true, or 1 against "true"), as numbers when the record
 * holds a number (450000 equals "450000.00"), else as text ("02108" stays unequal to "2108").
 */
function equal(leaf: Leaf, wanted: string): boolean {
	const want = text(wanted);
	const own = text(leaf);
	if (typeof leaf === 'boolean' || want === 'true' || want === 'false') {
		const truth = truthOf(own);
		return truth !== undefined && truth === truthOf(want);
	}
	if (typeof leaf === 'number' && want !== '' && Number.isFinite(Number(want)))
		return leaf === Number(want);
	return own === want;
}

/** Epoch ms from a number, digits or ISO text; a day alone is the whole day (UTC) with `endOfDay`. */
export function timeOf(value: Leaf, endOfDay = false): number | undefined {
	if (typeof value === 'boolean') return undefined;
	const written = String(value).trim();
	const ms = /^-?\d+$/.test(written) ? Number(written) : Date.parse(written);
	if (!Number.isFinite(ms)) return undefined;
	return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(written) ? ms + 86_400_000 - 1 : ms;
}

/** Why a condition cannot be used, naming it, or undefined; checked before anything is sent. */
export function conditionProblem(condition: FilterCondition): string | undefined {
	if (condition.field.trim() === '') return 'names no field';
	if (!FILTER_OPERATORS.includes(condition.operator))
		return `has no condition "${condition.operator}"`;
	const dated = condition.operator === 'onOrAfter' || condition.operator === 'onOrBefore';
	if (dated && timeOf(condition.value) === undefined)
		return `on "${condition.field}": "${condition.value}" is not a date or time (use ISO 8601 such as 2024-05-01 or 2024-05-01T09:00:00Z, or epoch milliseconds)`;
	return undefined;
}

/** Whether a record meets one condition (any of the field's values does, for a list). */
export function meets(record: IDataObject, condition: FilterCondition): boolean {
	const values = fieldValues(record, condition.field);
	const { operator, value } = condition;
	switch (operator) {
		case 'isEmpty':
			return values.length === 0;
		case 'isNotEmpty':
			return values.length > 0;
		case 'equals':
			return values.some((leaf) => equal(leaf, value));
		case 'contains':
			return values.some((leaf) => text(leaf).includes(text(value)));
		case 'onOrAfter':
		case 'onOrBefore': {
			const bound = timeOf(value, operator === 'onOrBefore') as number;
			return values.some((leaf) => {
				const at = timeOf(leaf);
				return at !== undefined && (operator === 'onOrAfter' ? at >= bound : at <= bound);
			});
		}
	}
}

/** The record filter of a list: every condition met (no condition: every record). */
export function recordFilter(
	conditions: readonly FilterCondition[],
): (record: IDataObject) => boolean {
	return (record) => conditions.every((condition) => meets(record, condition));
}
