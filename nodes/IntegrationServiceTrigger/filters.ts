import type { IDataObject, IHookFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { lossyNumberAt, lossyProblem } from '../shared/jsonNumbers';
import { jsonObjectOf } from '../shared/service';

/** The Filters as a JSON object, sent unchanged with the registration or with each webhook created. */
const jsonProperty = (
	sentWith: string,
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties => ({
	displayName: 'Filters',
	name: 'filters',
	type: 'json',
	default: '{}',
	description: `Conditions an event must meet to be delivered, as a JSON object sent unchanged with ${sentWith}, e.g. {"stage": "Lead"}`,
	displayOptions,
});

/** The Value field shown for one Type. */
const valueAs = (
	type: 'string' | 'number' | 'boolean',
	name: string,
	value: string | number | boolean,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName: 'Value',
	name,
	type,
	default: value,
	...extra,
	displayOptions: { show: { valueType: [type] } },
});

/** One condition of the Filters as fields: a field of the record and the value it must have. */
const FILTER_VALUES: INodeProperties[] = [
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		default: '',
		placeholder: 'e.g. stage',
		description: 'The field of the record, as the service names it',
	},
	{
		displayName: 'Type',
		name: 'valueType',
		type: 'options',
		default: 'string',
		options: [
			{ name: 'Text', value: 'string' },
			{ name: 'Number', value: 'number' },
			{ name: 'Boolean', value: 'boolean' },
		],
		description: 'How the value is sent: as text ("5"), a number (5) or true/false',
	},
	valueAs('string', 'value', '', { placeholder: 'e.g. Lead' }),
	valueAs('number', 'numberValue', 0),
	valueAs('boolean', 'booleanValue', false, { description: 'Whether the field must be true' }),
];

/**
 * From 1.2 the Filters hide only when Create and Delete Webhooks is off. One property each: n8n would
 * resolve a parameter sharing its name before that option has its value, and drop what depends on it.
 */
const shownFrom12 = (show: Record<string, string[]> = {}): INodeProperties['displayOptions'] => ({
	show: { '@version': [1.2], ...show },
	hide: { manageWebhooks: [false] },
});

/** From version 1.2: the Filters as fields, or as the JSON object of 1.1 for what fields cannot say. */
const FIELDS_OR_JSON: INodeProperties[] = [
	{
		displayName: 'Filters As',
		name: 'filtersMode',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Fields', value: 'fields', description: 'One field and value per condition' },
			{
				name: 'JSON',
				value: 'json',
				description: 'A JSON object, sent unchanged (nested conditions)',
			},
		],
		displayOptions: shownFrom12(),
	},
	{
		displayName: 'Filters',
		name: 'filterFields',
		type: 'fixedCollection',
		placeholder: 'Add Filter',
		default: {},
		typeOptions: { multipleValues: true },
		options: [{ name: 'filter', displayName: 'Filter', values: FILTER_VALUES }],
		description:
			'Conditions an event must meet to be delivered, sent with the registration or each webhook created as {"field": value}',
		displayOptions: shownFrom12({ filtersMode: ['fields'] }),
	},
	jsonProperty('the registration or each webhook created', shownFrom12({ filtersMode: ['json'] })),
];

export const FILTER_PROPERTIES: INodeProperties[] = [
	// Versions 1 and 1.1: the Filters as a JSON object only.
	jsonProperty('the registration', { show: { '@version': [1, 1.1], registerWebhook: [true] } }),
	jsonProperty('each webhook created', {
		show: { '@version': [1, 1.1], manageWebhooks: [true], registerWebhook: [false] },
	}),
	...FIELDS_OR_JSON,
];

type Refuse = (problem: string) => NodeOperationError;

/** The Filters as a JSON object; none for {} or blank. */
function jsonFilters(value: unknown, refuse: Refuse): { filters?: IDataObject } {
	const blank = typeof value === 'string' ? value.trim() : (value ?? '');
	if (blank === '' || blank === '{}') return {};
	const parsed = jsonObjectOf(value);
	if ('problem' in parsed) throw refuse(parsed.problem);
	const lossy = lossyNumberAt(parsed.object);
	if (lossy !== undefined) throw refuse(lossyProblem(lossy));
	return { filters: parsed.object as IDataObject };
}

/** The value of one filter as it is sent; it may come from an expression, so its type is checked. */
function filterValue(entry: IDataObject, field: string, refuse: Refuse): string | number | boolean {
	const where = `the Value of "${field}"`;
	if (entry.valueType === 'boolean') {
		if (typeof entry.booleanValue !== 'boolean') throw refuse(`${where} is not true or false`);
		return entry.booleanValue;
	}
	const asNumber = entry.valueType === 'number';
	const value = asNumber ? entry.numberValue : (entry.value ?? '');
	if (asNumber && (typeof value !== 'number' || !Number.isFinite(value)))
		throw refuse(`${where} is not a number`);
	if (typeof value === 'number' && lossyNumberAt(value) !== undefined)
		throw refuse(lossyProblem(field));
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
		throw refuse(`${where} is not text`);
	// Text: what an expression gives as a number or true/false is sent as its text.
	return asNumber ? value : String(value);
}

/** The Filters given as fields: one key per field, each given once; none for no filter. */
function filtersFromFields(ctx: IHookFunctions, refuse: Refuse): { filters?: IDataObject } {
	const entries = ctx.getNodeParameter('filterFields.filter', []) as IDataObject[];
	const pairs: Array<[string, string | number | boolean]> = [];
	for (const [index, entry] of entries.entries()) {
		const field = typeof entry.field === 'string' ? entry.field.trim() : '';
		if (field === '') throw refuse(`filter ${index + 1} has no Field`);
		if (pairs.some(([seen]) => seen === field))
			throw refuse(`the field "${field}" is given twice; give each field once`);
		pairs.push([field, filterValue(entry, field, refuse)]);
	}
	// fromEntries makes each key an own property, also "__proto__".
	return pairs.length > 0 ? { filters: Object.fromEntries(pairs) } : {};
}

/** The fields (1.2's default) or the JSON object, checked whole before anything is sent; `{}` for none. */
export function filtersOf(ctx: IHookFunctions): { filters?: IDataObject } {
	const refuse = (problem: string) => new NodeOperationError(ctx.getNode(), `Filters: ${problem}`);
	const mode =
		ctx.getNode().typeVersion >= 1.2 ? ctx.getNodeParameter('filtersMode', 'fields') : 'json';
	if (mode === 'fields') return filtersFromFields(ctx, refuse);
	return jsonFilters(ctx.getNodeParameter('filters', '{}'), refuse);
}
