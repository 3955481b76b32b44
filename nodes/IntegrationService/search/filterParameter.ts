/** Get Many's `filters` parameter from an entity's catalogue entry, and the conditions read back. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { FieldType, ResourceSpec } from '../../shared/catalogue';
import type { FilterCondition, FilterOperator } from './filters';
import { conditionProblem } from './filters';

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
						options: [
							{ name: 'Contains', value: 'contains', description: 'Text, any case' },
							{
								name: 'Equals',
								value: 'equals',
								description: 'Text in any case, a number, or true/false',
							},
							{ name: 'Is Empty', value: 'isEmpty' },
							{ name: 'Is Not Empty', value: 'isNotEmpty' },
							{ name: 'Is On or After', value: 'onOrAfter', description: 'A date or time' },
							{ name: 'Is On or Before', value: 'onOrBefore', description: 'A date or time' },
						],
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

/** The conditions, or why one cannot be used ("Filters › Condition 2 …"), before anything is sent. */
export function readFilters(raw: unknown): { conditions: FilterCondition[] } | { problem: string } {
	const entries = ((raw ?? {}) as IDataObject).conditions;
	const list = Array.isArray(entries) ? (entries as IDataObject[]) : [];
	const conditions: FilterCondition[] = [];
	for (const [at, entry] of list.entries()) {
		const picked = String(entry.field ?? '');
		const condition: FilterCondition = {
			field: (picked === OTHER_FIELD ? String(entry.fieldName ?? '') : picked).trim(),
			operator: String(entry.operator ?? 'equals') as FilterOperator,
			value: String(entry.value ?? ''),
		};
		const problem = conditionProblem(condition);
		if (problem !== undefined) return { problem: `Filters › Condition ${at + 1} ${problem}` };
		conditions.push(condition);
	}
	return { conditions };
}
