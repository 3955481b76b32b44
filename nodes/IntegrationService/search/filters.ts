/**
 * Get Many's Filters: the parameter, from an entity's catalogue entry, and the check of each record as
 * pages arrive (the service filters nothing). Answers vary by connected system: text compares in any
 * case, "42" equals 42, 1 and 0 are booleans.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldType, ResourceSpec } from '../../shared/catalogue';
import { isJsonObject } from '../../shared/service';

const OPERATORS = [
	{ name: 'Contains', value: 'contains', description: 'Text, any case' },
	{ name: 'Equals', value: 'equals', description: 'Text in any case, a number, or true/false' },
	{ name: 'Is Empty', value: 'isEmpty' },
	{ name: 'Is Not Empty', value: 'isNotEmpty' },
	{ name: 'Is On or After', value: 'onOrAfter', description: 'A date or time' },
	{ name: 'Is On or Before', value: 'onOrBefore', description: 'A date or time' },
] as const;
export type FilterOperator = (typeof OPERATORS)[number]['value'];

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
			if (!isJsonObject(value)) return [];
			const alias = depth === 0 ? /^(created|updated)(At)?$/.exec(name) : null;
			const found =
				value[name] ?? (alias ? value[alias[2] ? alias[1] : `${alias[1]}At`] : undefined);
			return Array.isArray(found) ? found : [found];
		});
	});
	return values.flatMap((value) => leafOf(isJsonObject(value) ? value.value : value));
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

/** The field option that shows Field Name, for a field the list does not offer. */
export const OTHER_FIELD = '__other';

/** Kinds whose values a condition reads (text, numbers, booleans, lists of them, contact values). */
const FILTERABLE: readonly FieldType[] = [
	'string',
	'number',
	'boolean',
	'stringList',
	'dateTime',
	'emails',
	'phones',
];

/** Fields every record answers with, beside the writable ones (`created` also reads `createdAt`). */
const RECORD_FIELDS: INodePropertyOptions[] = [
	{ name: 'Created', value: 'created' },
	{ name: 'ID', value: 'id' },
	{ name: 'Updated', value: 'updated' },
];

function fieldOptions(resource: ResourceSpec): INodePropertyOptions[] {
	const own = (resource.fields ?? [])
		.filter((field) => FILTERABLE.includes(field.type) && !field.writeOnly)
		.map((field) => ({ name: field.label, value: field.name }));
	const other = { name: 'Other (Type Its Name)', value: OTHER_FIELD };
	return [...RECORD_FIELDS, ...own, other].sort((a, b) => a.name.localeCompare(b.name));
}

/** The Filters of an entity's Get Many: conditions every record output meets. */
export function filtersProperty(resource: ResourceSpec): INodeProperties {
	const many = resource.noun?.many ?? 'records';
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		description: `Conditions each of the ${many} output must meet, all of them. The service filters nothing, so every page is read and checked here; a Limit stops as soon as it has that many ${many} that meet them.`,
		options: [
			{
				name: 'conditions',
				displayName: 'Condition',
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						options: fieldOptions(resource),
						default: 'created',
						description: 'The field the condition reads',
					},
					{
						displayName: 'Field Name',
						name: 'fieldName',
						type: 'string',
						default: '',
						placeholder: 'e.g. addresses.city',
						description:
							'The field as the service names it; a dot reaches inside an object, and each entry of a list counts',
						displayOptions: { show: { field: [OTHER_FIELD] } },
					},
					{
						displayName: 'Condition',
						name: 'operator',
						type: 'options',
						options: [...OPERATORS],
						default: 'equals',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. 2024-05-01',
						description:
							'What to compare with. A date: ISO 8601 (2024-05-01 is that whole day, in UTC) or epoch milliseconds.',
						displayOptions: { hide: { operator: ['isEmpty', 'isNotEmpty'] } },
					},
				],
			},
		],
	};
}

/** The conditions, or why one cannot be used ("Filters › Condition 2 …"), checked before anything is sent. */
export function readFilters(raw: unknown): { conditions: FilterCondition[] } | { problem: string } {
	const entries = ((raw ?? {}) as IDataObject).conditions;
	const list = Array.isArray(entries) ? (entries as IDataObject[]) : [];
	const conditions: FilterCondition[] = [];
	for (const [at, entry] of list.entries()) {
		const picked = String(entry.field ?? '');
		const field = (picked === OTHER_FIELD ? String(entry.fieldName ?? '') : picked).trim();
		const operator = String(entry.operator ?? 'equals') as FilterOperator;
		const value = String(entry.value ?? '');
		const dated = operator === 'onOrAfter' || operator === 'onOrBefore';
		const refuse = (problem: string) => ({ problem: `Filters › Condition ${at + 1} ${problem}` });
		if (field === '') return refuse('names no field');
		if (!OPERATORS.some((known) => known.value === operator))
			return refuse(`has no condition "${operator}"`);
		if (dated && timeOf(value) === undefined)
			return refuse(
				`on "${field}": "${value}" is not a date or time (use ISO 8601 such as 2024-05-01 or 2024-05-01T09:00:00Z, or epoch milliseconds)`,
			);
		conditions.push({ field, operator, value });
	}
	return { conditions };
}
